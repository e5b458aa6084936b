import { Connection, mongo } from 'mongoose';
import { CaptureBlobStore } from '../domain/ports/capture-stores';
import { PiiVault } from './pii-vault';

/** How many capture blobs are stored (tests and metrics count them without opening any). */
export function countCaptureBlobs(connection: Connection): Promise<number> {
  const db = connection.db;
  if (!db) throw new Error('the store connection is not open');
  return db.collection('capture_blobs.files').countDocuments({});
}

type BlobSealer = Pick<PiiVault, 'sealBytes' | 'openBytes' | 'needsReseal'>;

/**
 * Captured images, sealed at rest by the vault (the session id bound in as associated data so a
 * blob cannot be passed off as another session's) in a GridFS bucket on the store's connection.
 * Never in Redis, queue payloads or logs.
 */
export class CaptureBlobRepository implements CaptureBlobStore {
  private readonly bucket: mongo.GridFSBucket;
  private readonly files: mongo.Collection;

  constructor(
    connection: Connection,
    private readonly vault: BlobSealer,
  ) {
    const db = connection.db;
    if (!db) throw new Error('the store connection is not open');
    this.bucket = new mongo.GridFSBucket(db, { bucketName: 'capture_blobs' });
    this.files = db.collection('capture_blobs.files');
  }

  async put(sessionId: string, image: Buffer): Promise<string> {
    const id = new mongo.ObjectId();
    await this.upload(id, sessionId, await this.vault.sealBytes(sessionId, image));
    return id.toHexString();
  }

  async get(sessionId: string, blobId: string): Promise<Buffer> {
    return this.vault.openBytes(sessionId, await this.download(new mongo.ObjectId(blobId)));
  }

  /**
   * Rewrites every blob not in the current envelope under the current data key, keeping its id
   * (capture states name blobs by id). GridFS has no in-place update, so each is deleted and
   * uploaded again from memory after it was opened: a crash between the two loses that one image,
   * which the capture's retention would drop within hours anyway, and a decision reading it in that
   * instant fails and is retried by its job.
   */
  async resealAll(): Promise<number> {
    let resealed = 0;
    for await (const file of this.files.find({}, { projection: { _id: 1, metadata: 1 } })) {
      const id = file._id;
      const sessionId = (file.metadata as { session_id?: string } | undefined)?.session_id;
      if (!sessionId) continue;
      const stored = await this.download(id);
      if (!this.vault.needsReseal(stored)) continue;
      const sealed = await this.vault.sealBytes(sessionId, await this.vault.openBytes(sessionId, stored));
      await this.bucket.delete(id);
      await this.upload(id, sessionId, sealed);
      resealed += 1;
    }
    return resealed;
  }

  private upload(id: mongo.ObjectId, sessionId: string, sealed: Buffer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const upload = this.bucket.openUploadStreamWithId(id, `${sessionId}.bin`, {
        metadata: { session_id: sessionId },
      });
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(sealed);
    });
  }

  private async download(id: mongo.ObjectId): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(id)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
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
