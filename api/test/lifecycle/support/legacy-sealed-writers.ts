import { createHash, randomBytes } from 'node:crypto';
import { Connection, mongo } from 'mongoose';
import { gcmSeal, packBox } from '../../../src/shared/aes-gcm';
import { dataKeyModel } from '../../../src/data-access/data-key.model';

/**
 * Writes values exactly as the service wrote them before every kind moved into the vault's one
 * envelope, so the migration is tested against the bytes old deployments hold, not against new code.
 */

/** A data key of the vault (the same in both eras), sealed by `masterKey` under `<id>`; returns the raw key. */
export async function insertDataKey(
  connection: Connection,
  id: string,
  masterKeyId: string,
  masterKey: Buffer,
): Promise<Buffer> {
  const key = randomBytes(32);
  const sealedKey = packBox(gcmSeal(masterKey, key, Buffer.from(id, 'utf8'))).toString('base64');
  await dataKeyModel(connection).collection.insertOne({
    _id: id as never,
    master_key_id: masterKeyId,
    sealed_key: sealedKey,
    created_at: new Date(),
    resealed_at: null,
  });
  return key;
}

/** Personal fields: `pii1:<data key id>:<base64 iv‖ct‖tag>`, `where` as AAD. */
export const pii1 = (dataKeyId: string, dataKey: Buffer, where: string, plaintext: string): string =>
  `pii1:${dataKeyId}:${packBox(gcmSeal(dataKey, Buffer.from(plaintext, 'utf8'), Buffer.from(where, 'utf8'))).toString('base64')}`;

/** Webhook secrets and document reads: `v1.<iv>.<tag>.<body>` under SHA-256 of the key text, no AAD. */
export function secretBoxV1(keyText: string, plaintext: string): string {
  const { iv, tag, body } = gcmSeal(
    createHash('sha256').update(keyText, 'utf8').digest(),
    Buffer.from(plaintext, 'utf8'),
  );
  return ['v1', iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join('.');
}

/** Captured images: `BVC1` ‖ iv ‖ ct ‖ tag under the base64 capture key, the session id as AAD, in GridFS. */
export async function uploadBvc1(
  connection: Connection,
  captureKey: string,
  sessionId: string,
  image: Buffer,
): Promise<string> {
  const sealed = Buffer.concat([
    Buffer.from('BVC1'),
    packBox(gcmSeal(Buffer.from(captureKey, 'base64'), image, Buffer.from(sessionId, 'utf8'))),
  ]);
  const bucket = new mongo.GridFSBucket(connection.db!, { bucketName: 'capture_blobs' });
  const id = new mongo.ObjectId();
  await new Promise<void>((resolve, reject) => {
    const upload = bucket.openUploadStreamWithId(id, `${sessionId}.bin`, {
      metadata: { session_id: sessionId },
    });
    upload.once('finish', () => resolve());
    upload.once('error', reject);
    upload.end(sealed);
  });
  return id.toHexString();
}

export async function rawBlob(connection: Connection, blobId: string): Promise<Buffer> {
  const bucket = new mongo.GridFSBucket(connection.db!, { bucketName: 'capture_blobs' });
  const chunks: Buffer[] = [];
  for await (const chunk of bucket.openDownloadStream(new mongo.ObjectId(blobId))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
