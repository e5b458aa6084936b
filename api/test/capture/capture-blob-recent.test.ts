import { randomBytes } from 'node:crypto';
import { Connection, mongo } from 'mongoose';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';
import { CaptureBlobRepository } from '../../src/data-access/capture-blob.repository';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { openVault } from '../../src/data-access/open-vault';
import { RecentBlobs } from '../../src/data-access/recent-blobs';

const SESSION = 'ses_recent';

describe('a capture blob read back by the process that wrote it comes from memory, still sealed and still bound to its session', () => {
  const env = isolatedTestEnv();
  let connection: Connection;

  beforeAll(async () => {
    connection = await connectMongo(env.MONGODB_URI);
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  const repository = (recent: RecentBlobs) => new CaptureBlobRepository(connection, openVault(connection, env), recent);
  const dropChunksOf = (blobId: string) =>
    connection.db!.collection('capture_blobs.chunks').deleteMany({ files_id: new mongo.ObjectId(blobId) });

  it('answers a blob it just wrote without reading the store (its chunks are gone, the read still succeeds)', async () => {
    const blobs = repository(new RecentBlobs());
    const image = randomBytes(437 * 1024);
    const blobId = await blobs.put(SESSION, image);
    await dropChunksOf(blobId);
    expect((await blobs.get(SESSION, blobId)).equals(image)).toBe(true);
  });

  it('keeps the blob sealed in memory: the remembered bytes are the stored envelope, not the image', async () => {
    const recent = new RecentBlobs();
    const image = randomBytes(64 * 1024);
    const blobId = await repository(recent).put(SESSION, image);
    const remembered = recent.recall(blobId)!;
    const chunk = await connection
      .db!.collection('capture_blobs.chunks')
      .findOne({ files_id: new mongo.ObjectId(blobId) });
    expect(remembered.equals(Buffer.from((chunk!.data as mongo.Binary).buffer))).toBe(true);
    expect(remembered.includes(image.subarray(0, 32))).toBe(false);
  });

  it('opens a remembered blob only under the session it was sealed for', async () => {
    const blobs = repository(new RecentBlobs());
    const blobId = await blobs.put(SESSION, randomBytes(1024));
    await expect(blobs.get('ses_someone_else', blobId)).rejects.toThrow();
  });

  it('forgets a blob it deletes, so a deleted capture is never answered from memory', async () => {
    const blobs = repository(new RecentBlobs());
    const blobId = await blobs.put(SESSION, randomBytes(1024));
    await blobs.delete([blobId]);
    await expect(blobs.get(SESSION, blobId)).rejects.toThrow(/not found/i);
  });

  it('reads from the store a blob another process wrote', async () => {
    const image = randomBytes(2048);
    const blobId = await repository(new RecentBlobs()).put(SESSION, image);
    const other = repository(new RecentBlobs());
    expect((await other.get(SESSION, blobId)).equals(image)).toBe(true);
    await dropChunksOf(blobId);
    // Its chunks gone, the other process has nothing to answer from.
    await expect(other.get(SESSION, blobId)).rejects.toThrow();
  });
});
