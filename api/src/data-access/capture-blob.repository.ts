import { Connection, mongo } from 'mongoose';
import { CaptureBlobStore } from '../domain/ports/capture-stores';
import { PiiVault } from './pii-vault';
import { RecentBlobs } from './recent-blobs';

/** How many capture blobs are stored (tests and metrics count them without opening any). */
export function countCaptureBlobs(connection: Connection): Promise<number> {
  const db = connection.db;
  if (!db) throw new Error('the store connection is not open');
  return db.collection('capture_blobs.files').countDocuments({});
}

type BlobSealer = Pick<PiiVault, 'sealBytes' | 'openBytes' | 'needsReseal'>;

/**
 * The largest GridFS chunk a capture is written in. GridFS's default (255 KiB) splits a frame pack
 * into several chunks; a blob up to this size goes in one chunk sized to it. 4 MiB stays far under
 * the 16 MiB document limit of MongoDB and FerretDB alike. Reads follow each file's own recorded
 * chunk size, so blobs written with the old default still read.
 */
export const CAPTURE_CHUNK_MAX_BYTES = 4 * 1024 * 1024;

/** One chunk for any blob up to the cap (sized to it, so no larger buffer is allocated). */
export const chunkSizeFor = (bytes: number): number => Math.min(Math.max(bytes, 1), CAPTURE_CHUNK_MAX_BYTES);

/**
 * A chunk's `_id`, derived from its file's id and its index. FerretDB answers only `_id` lookups
 * from a key; the driver's GridFS reads and deletes chunks by `files_id`, which there scans and
 * decodes every stored chunk (about 30 ms per stored megabyte, for each read and each delete).
 * The chunks keep the standard `files_id`, `n` and `data`, so any GridFS reader still reads them.
 */
export const chunkIdOf = (fileId: mongo.ObjectId, n: number): string => `${fileId.toHexString()}/${n}`;

interface FileDoc {
  _id: mongo.ObjectId;
  length: number;
  chunkSize: number;
}

interface ChunkDoc {
  _id: string | mongo.ObjectId;
  files_id: mongo.ObjectId;
  n: number;
  data: mongo.Binary;
}

/**
 * Captured images, sealed at rest by the vault (the session id bound in as associated data so a
 * blob cannot be passed off as another session's) in a GridFS bucket on the store's connection.
 * Never in Redis, queue payloads or logs.
 */
export class CaptureBlobRepository implements CaptureBlobStore {
  private readonly bucket: mongo.GridFSBucket;
  private readonly files: mongo.Collection;
  private readonly chunks: mongo.Collection<ChunkDoc>;
  private indexes: Promise<void> | null = null;

  constructor(
    connection: Connection,
    private readonly vault: BlobSealer,
    /** Blobs written lately, read back without the store (`new RecentBlobs(0)` reads every one from it). */
    private readonly recent = new RecentBlobs(),
  ) {
    const db = connection.db;
    if (!db) throw new Error('the store connection is not open');
    this.bucket = new mongo.GridFSBucket(db, { bucketName: 'capture_blobs' });
    this.files = db.collection('capture_blobs.files');
    this.chunks = db.collection<ChunkDoc>('capture_blobs.chunks');
  }

  async put(sessionId: string, image: Buffer): Promise<string> {
    const id = new mongo.ObjectId();
    const sealed = await this.vault.sealBytes(sessionId, image);
    await this.upload(id, sessionId, sealed);
    this.recent.remember(id.toHexString(), sealed);
    return id.toHexString();
  }

  /** The vault opens a remembered blob as it opens a stored one (bound to its session either way). */
  async get(sessionId: string, blobId: string): Promise<Buffer> {
    const sealed = this.recent.recall(blobId) ?? (await this.download(new mongo.ObjectId(blobId)));
    return this.vault.openBytes(sessionId, sealed);
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
      await this.remove(id);
      await this.upload(id, sessionId, sealed);
      resealed += 1;
    }
    return resealed;
  }

  /**
   * The chunks first, then the file document that makes the blob visible (GridFS's own order), so
   * a crash midway leaves no file that names missing chunks.
   */
  private async upload(id: mongo.ObjectId, sessionId: string, sealed: Buffer): Promise<void> {
    await this.ensureIndexes();
    const chunkSize = chunkSizeFor(sealed.length);
    for (let n = 0; n * chunkSize < sealed.length; n++) {
      const data = sealed.subarray(n * chunkSize, (n + 1) * chunkSize);
      await this.chunks.insertOne({ _id: chunkIdOf(id, n), files_id: id, n, data: new mongo.Binary(data) });
    }
    await this.files.insertOne({
      _id: id,
      length: sealed.length,
      chunkSize,
      uploadDate: new Date(),
      filename: `${sessionId}.bin`,
      metadata: { session_id: sessionId },
    });
  }

  /** The indexes GridFS's own writer creates, so the bucket stays a standard one on MongoDB. */
  private ensureIndexes(): Promise<void> {
    this.indexes ??= Promise.all([
      this.files.createIndex({ filename: 1, uploadDate: 1 }),
      this.chunks.createIndex({ files_id: 1, n: 1 }, { unique: true }),
    ]).then(
      () => undefined,
      (error: unknown) => {
        this.indexes = null;
        throw error;
      },
    );
    return this.indexes;
  }

  /** Chunks by their derived ids; a blob written before them (ObjectId chunk ids) by GridFS's reader. */
  private async download(id: mongo.ObjectId): Promise<Buffer> {
    const file = await this.files.findOne<FileDoc>({ _id: id }, { projection: { length: 1, chunkSize: 1 } });
    if (!file) throw new Error(`FileNotFound: file ${id.toHexString()} was not found`);
    const count = Math.ceil(file.length / file.chunkSize);
    const parts: Buffer[] = [];
    for (let n = 0; n < count; n++) {
      const chunk = await this.chunks.findOne({ _id: chunkIdOf(id, n) });
      if (!chunk) {
        if (n === 0) return this.downloadByFilesId(id);
        throw new Error(`ChunkIsMissing: chunk ${n} of file ${id.toHexString()}`);
      }
      const expected = n === count - 1 ? file.length - n * file.chunkSize : file.chunkSize;
      const bytes = chunk.data.read(0, chunk.data.length());
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (!chunk.files_id.equals(id) || chunk.n !== n || data.length !== expected)
        throw new Error(`ChunkIsInvalid: chunk ${n} of file ${id.toHexString()}`);
      parts.push(data);
    }
    return Buffer.concat(parts);
  }

  private async downloadByFilesId(id: mongo.ObjectId): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(id)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * Chunks first, then the file document, so a purge retried after a crash still finds the file
   * and finishes. Chunks that are not all under their derived ids (a blob written before them, or
   * a delete cut short) are swept by `files_id`, as GridFS's own delete does.
   */
  private async remove(id: mongo.ObjectId): Promise<boolean> {
    this.recent.forget(id.toHexString());
    const file = await this.files.findOne<FileDoc>({ _id: id }, { projection: { length: 1, chunkSize: 1 } });
    const count = file ? Math.ceil(file.length / file.chunkSize) : 0;
    let deleted = 0;
    for (let n = 0; n < count; n++) deleted += (await this.chunks.deleteOne({ _id: chunkIdOf(id, n) })).deletedCount;
    if (!file || deleted < count) await this.chunks.deleteMany({ files_id: id });
    if (!file) return false;
    await this.files.deleteOne({ _id: id });
    return true;
  }

  /** Deleting a blob that is already gone is not an error: purges are retried after crashes. */
  async delete(blobIds: string[]): Promise<void> {
    for (const id of blobIds) await this.remove(new mongo.ObjectId(id));
  }
  /** How many blobs are stored (for tests and metrics). */
  count(): Promise<number> {
    return this.files.countDocuments({});
  }
}
