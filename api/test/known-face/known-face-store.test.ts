import { Connection } from 'mongoose';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { KnownFaceRepository } from '../../src/data-access/known-face.repository';
import { PiiVault } from '../../src/data-access/pii-vault';
import { parseMasterKeys } from '../../src/shared/master-keys';
import type { FaceGallery } from '../../src/domain/ports/known-faces';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';

const gallery = (accountId: string, environment: 'production' | 'sandbox' = 'production'): FaceGallery => ({
  accountId,
  environment,
  space: { metric: 'euclidean_distance', model: 'face-embedding@3:abc' },
});
const face = (sessionId: string, seed: number, identity = `key-${sessionId}`) => ({
  session_id: sessionId,
  identity_key: identity,
  embedding: Float32Array.from({ length: 128 }, (_, i) => Math.sin(seed * 31 + i) / 8),
});

describe('the store of verified faces on the real store (FerretDB or MONGODB_URI)', () => {
  let connection: Connection;
  let vault: PiiVault;
  let env: ReturnType<typeof isolatedTestEnv>;
  const repository = () => new KnownFaceRepository(connection, env.CAPTURE_ENCRYPTION_KEY, vault);

  beforeAll(async () => {
    env = isolatedTestEnv();
    connection = await connectMongo(env.MONGODB_URI);
    vault = new PiiVault(connection, parseMasterKeys(env.PII_MASTER_KEYS));
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('keeps each face sealed at rest, with neither the descriptor nor the identity key readable in the stored document', async () => {
    const faces = repository();
    const stored = face('ses_sealed', 1);
    await faces.remember(gallery('acc_sealed'), stored);
    const docs = await connection.db!.collection('known_faces').find({ session_id: 'ses_sealed' }).toArray();
    expect(docs).toHaveLength(1);
    const raw = JSON.stringify(docs[0]);
    expect(docs[0].sealed).toMatch(/^sv1:/);
    expect(raw).not.toContain(stored.identity_key);
    expect(raw).not.toContain(Buffer.from(stored.embedding.buffer).toString('base64').slice(0, 24));
    const [read] = await faces.faces(gallery('acc_sealed'));
    expect(read.identity_key).toBe(stored.identity_key);
    expect(Array.from(read.embedding)).toEqual(Array.from(stored.embedding));
  });

  it('scopes faces to their account and environment', async () => {
    const faces = repository();
    await faces.remember(gallery('acc_a'), face('ses_a', 2));
    await faces.remember(gallery('acc_a', 'sandbox'), face('ses_a_sandbox', 3));
    expect((await faces.faces(gallery('acc_b'))).map((f) => f.session_id)).toEqual([]);
    expect((await faces.faces(gallery('acc_a'))).map((f) => f.session_id)).toEqual(['ses_a']);
    expect((await faces.faces(gallery('acc_a', 'sandbox'))).map((f) => f.session_id)).toEqual(['ses_a_sandbox']);
  });

  it('shows a process the faces another process added since it loaded its index, and loses none of 20 racing inserts', async () => {
    const worker1 = repository();
    const worker2 = repository();
    expect(await worker1.faces(gallery('acc_race'))).toHaveLength(0);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? worker1 : worker2).remember(gallery('acc_race'), face(`ses_${i}`, i)),
      ),
    );
    const seen1 = (await worker1.faces(gallery('acc_race'))).map((f) => f.session_id).sort();
    const seen2 = (await worker2.faces(gallery('acc_race'))).map((f) => f.session_id).sort();
    const all = Array.from({ length: 20 }, (_, i) => `ses_${i}`).sort();
    expect(seen1).toEqual(all);
    expect(seen2).toEqual(all);
  });

  it('forgets a redacted session’s face: gone from the store and from this process, and no longer known to another', async () => {
    const api = repository();
    const worker = repository();
    await worker.remember(gallery('acc_forget'), face('ses_kept', 4));
    await worker.remember(gallery('acc_forget'), face('ses_redacted', 5));
    expect(await worker.faces(gallery('acc_forget'))).toHaveLength(2);
    await api.forget('acc_forget', 'ses_redacted');
    expect(await worker.stillKnown('acc_forget', 'ses_redacted')).toBe(false);
    expect(await worker.stillKnown('acc_forget', 'ses_kept')).toBe(true);
    const docs = await connection.db!.collection('known_faces').find({ session_id: 'ses_redacted' }).toArray();
    expect(docs.map((d) => d.sealed as unknown)).toEqual([null]);
    expect((await repository().faces(gallery('acc_forget'))).map((f) => f.session_id)).toEqual(['ses_kept']);
    await api.forget('acc_forget', 'ses_redacted');
  });

  it('keeps one face per session: verifying the session again replaces it', async () => {
    const faces = repository();
    await faces.remember(gallery('acc_again'), face('ses_again', 6));
    await faces.remember(gallery('acc_again'), face('ses_again', 7));
    const read = await repository().faces(gallery('acc_again'));
    expect(read).toHaveLength(1);
    expect(Array.from(read[0].embedding)).toEqual(Array.from(face('ses_again', 7).embedding));
  });

  it('keys an identity by a digest that depends on the deployment key', () => {
    const other = new KnownFaceRepository(connection, Buffer.alloc(32, 7).toString('base64'), vault);
    const key = repository().identityKey('GRACE HOPPER|1906-12-09');
    expect(key).toBe(repository().identityKey('GRACE HOPPER|1906-12-09'));
    expect(key).not.toContain('GRACE');
    expect(other.identityKey('GRACE HOPPER|1906-12-09')).not.toBe(key);
  });
});
