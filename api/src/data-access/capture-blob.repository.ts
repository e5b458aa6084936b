import { Connection, mongo } from 'mongoose';
import { gcmOpen, gcmSeal, packBox, unpackBox } from '../shared/aes-gcm';

const MAGIC = Buffer.from('BVC1');

/**
 * Captured images, encrypted at rest (AES-256-GCM, a fresh IV per blob, the session id bound in as
 * associated data so a blob cannot be passed off as another session's) in a GridFS bucket on the
 * store's connection. Never in Redis, queue payloads or logs.
 */
export class CaptureBlobRepository {
  private readonly bucket: mongo.GridFSBucket;
  private readonly files: mongo.Collection;

  constructor(connection: Connection, private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the capture encryption key must be 32 bytes');
    const db = connection.db;
    if (!db) throw new Error('the store connection is not open');
    this.bucket = new mongo.GridFSBucket(db, { bucketName: 'capture_blobs' });
    this.files = db.collection('capture_blobs.files');
  }

  async put(sessionId: string, image: Buffer): Promise<string> {
    const sealed = Buffer.concat([MAGIC, packBox(gcmSeal(this.key, image, Buffer.from(sessionId, 'utf8')))]);
    const id = new mongo.ObjectId();
    await new Promise<void>((resolve, reject) => {
      const upload = this.bucket.openUploadStreamWithId(id, `${sessionId}.bin`, { metadata: { session_id: sessionId } });
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(sealed);
    });
    return id.toHexString();
  }

  async get(sessionId: string, blobId: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(new mongo.ObjectId(blobId))) chunks.push(chunk as Buffer);
    const sealed = Buffer.concat(chunks);
    if (!sealed.subarray(0, 4).equals(MAGIC)) throw new Error(`capture blob ${blobId} has an unknown format`);
    return gcmOpen(this.key, unpackBox(sealed.subarray(4)), Buffer.from(sessionId, 'utf8'));
  }

  /** Deleting a blob that is already gone is not an error: purges are retried after crashes. */
  async delete(blobIds: string[]): Promise<void> {
    for (const id of blobIds) {
      try {
        await this.bucket.delete(new mongo.ObjectId(id));
      } catch (error) {
        if (!/not found|FileNotFound/i.test((error as Error).message)) throw error;
      }
    }
  }

  /** How many blobs are stored (for tests and metrics). */
  count(): Promise<number> {
    return this.files.countDocuments({});
  }
}
