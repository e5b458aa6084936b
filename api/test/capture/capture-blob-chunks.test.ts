import { randomBytes } from 'node:crypto';
import { Connection, mongo } from 'mongoose';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';
import {
  CAPTURE_CHUNK_MAX_BYTES,
  CaptureBlobRepository,
  chunkIdOf,
} from '../../src/data-access/capture-blob.repository';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { openVault } from '../../src/data-access/open-vault';
import { RecentBlobs } from '../../src/data-access/recent-blobs';

const SESSION = 'ses_chunks';

describe('capture blobs are written in as few GridFS chunks as the document limit allows, and every chunk size reads', () => {
  const env = isolatedTestEnv();
  let connection: Connection;
  let blobs: CaptureBlobRepository;

  beforeAll(async () => {
    connection = await connectMongo(env.MONGODB_URI);
    // Nothing remembered: every read here goes to the store's chunks (capture-blob-recent.test.ts has the other).
    blobs = new CaptureBlobRepository(connection, openVault(connection, env), new RecentBlobs(0));
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  const chunksOf = async (blobId: string) =>
    connection
      .db!.collection('capture_blobs.chunks')
      .find({ files_id: new mongo.ObjectId(blobId) }, { projection: { _id: 1, n: 1, data: 1 } })
      .sort({ n: 1 })
      .toArray();

  it('stores a capture larger than GridFS default chunk in one chunk and reads it back whole', async () => {
    const image = randomBytes(700 * 1024);
    const blobId = await blobs.put(SESSION, image);
    expect(await chunksOf(blobId)).toHaveLength(1);
    expect((await blobs.get(SESSION, blobId)).equals(image)).toBe(true);
  });

  it('names each chunk by its file id and index, so reads and deletes go by the key', async () => {
    const blobId = await blobs.put(SESSION, randomBytes(CAPTURE_CHUNK_MAX_BYTES + 1024));
    const id = new mongo.ObjectId(blobId);
    expect((await chunksOf(blobId)).map((chunk) => chunk._id)).toEqual([chunkIdOf(id, 0), chunkIdOf(id, 1)]);
  });

  it('reads a blob through GridFS own reader as well, since the chunks keep the standard fields', async () => {
    const image = randomBytes(300 * 1024);
    const blobId = await blobs.put(SESSION, image);
    const parts: Buffer[] = [];
    const bucket = new mongo.GridFSBucket(connection.db!, { bucketName: 'capture_blobs' });
    for await (const part of bucket.openDownloadStream(new mongo.ObjectId(blobId))) parts.push(part as Buffer);
    expect(await openVault(connection, env).openBytes(SESSION, Buffer.concat(parts))).toEqual(image);
  });

  it('deletes every chunk and the file, and deleting it again is not an error', async () => {
    const blobId = await blobs.put(SESSION, randomBytes(CAPTURE_CHUNK_MAX_BYTES + 1024));
    await blobs.delete([blobId]);
    expect(await chunksOf(blobId)).toHaveLength(0);
    expect(
      await connection.db!.collection('capture_blobs.files').countDocuments({ _id: new mongo.ObjectId(blobId) }),
    ).toBe(0);
    await expect(blobs.delete([blobId])).resolves.toBeUndefined();
    await expect(blobs.get(SESSION, blobId)).rejects.toThrow(/not found/i);
  });

  it('splits a blob above the cap into chunks of the cap and reads it back whole', async () => {
    const image = randomBytes(CAPTURE_CHUNK_MAX_BYTES + 300 * 1024);
    const blobId = await blobs.put(SESSION, image);
    const chunks = await chunksOf(blobId);
    expect(chunks.map((chunk) => (chunk.data as mongo.Binary).length())[0]).toBe(CAPTURE_CHUNK_MAX_BYTES);
    expect(chunks).toHaveLength(2);
    expect((await blobs.get(SESSION, blobId)).equals(image)).toBe(true);
  });

  it('still reads a blob written earlier in GridFS default 255 KiB chunks', async () => {
    const image = randomBytes(600 * 1024);
    const sealed = await openVault(connection, env).sealBytes(SESSION, image);
    const id = new mongo.ObjectId();
    await new Promise<void>((resolve, reject) => {
      const upload = new mongo.GridFSBucket(connection.db!, { bucketName: 'capture_blobs' }).openUploadStreamWithId(
        id,
        `${SESSION}.bin`,
        { metadata: { session_id: SESSION } },
      );
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(sealed);
    });
    expect(await chunksOf(id.toHexString())).toHaveLength(3);
    expect((await blobs.get(SESSION, id.toHexString())).equals(image)).toBe(true);
    const before = await blobs.count();
    await blobs.delete([id.toHexString()]);
    expect(await chunksOf(id.toHexString())).toHaveLength(0);
    expect(await blobs.count()).toBe(before - 1);
  });
});
