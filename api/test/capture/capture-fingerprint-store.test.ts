import { Connection } from 'mongoose';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { CaptureFingerprintRepository } from '../../src/data-access/capture-fingerprint.repository';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';

describe('the capture fingerprints on the real store (FerretDB or MONGODB_URI)', () => {
  let connection: Connection;
  let prints: CaptureFingerprintRepository;

  beforeAll(async () => {
    const env = isolatedTestEnv();
    connection = await connectMongo(env.MONGODB_URI);
    prints = new CaptureFingerprintRepository(connection, env.CAPTURE_ENCRYPTION_KEY);
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  const selfie = Buffer.from('the same selfie bytes');
  const frame = Buffer.from('a liveness frame');

  it('names the first session when another session of the same account presents the same capture, and no one in another account', async () => {
    expect(await prints.claim('acc_a', 'ses_1', [{ kind: 'selfie', value: prints.of(selfie) }])).toEqual([]);
    expect(await prints.claim('acc_a', 'ses_2', [{ kind: 'selfie', value: prints.of(selfie) }])).toEqual([
      { kind: 'selfie', session_id: 'ses_1' },
    ]);
    expect(await prints.claim('acc_b', 'ses_3', [{ kind: 'selfie', value: prints.of(selfie) }])).toEqual([]);
    // A session deciding again (a retried decision) does not find itself.
    expect(await prints.claim('acc_a', 'ses_1', [{ kind: 'selfie', value: prints.of(selfie) }])).toEqual([]);
  });

  it("deletes a redacted session's own fingerprints, and only those, so the capture is no longer linked to it", async () => {
    await prints.claim('acc_r', 'ses_first', [
      { kind: 'selfie', value: prints.of(selfie) },
      { kind: 'liveness', value: prints.of(frame) },
    ]);
    await prints.claim('acc_r', 'ses_second', [{ kind: 'selfie', value: prints.of(selfie) }]);
    await prints.forget('acc_r', 'ses_second');
    // The second session's sighting owned nothing: the first session still owns the selfie.
    expect(await prints.claim('acc_r', 'ses_third', [{ kind: 'selfie', value: prints.of(selfie) }])).toEqual([
      { kind: 'selfie', session_id: 'ses_first' },
    ]);
    await prints.forget('acc_r', 'ses_first');
    const left = await connection
      .db!.collection('capture_fingerprints')
      .find({ _id: { $in: [`acc_r:${prints.of(selfie)}`, `acc_r:${prints.of(frame)}`] } } as never)
      .toArray();
    expect(left).toEqual([]);
    expect(
      await connection.db!.collection('capture_fingerprint_sessions').findOne({ _id: 'acc_r:ses_first' } as never),
    ).toBeNull();
    // With the first session redacted, the next to present the selfie owns it.
    expect(await prints.claim('acc_r', 'ses_fourth', [{ kind: 'selfie', value: prints.of(selfie) }])).toEqual([]);
  });
});
