import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Connection } from 'mongoose';
import sharp from 'sharp';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { CaptureFingerprintRepository } from '../../src/data-access/capture-fingerprint.repository';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';
import { TESTDATA } from './support/applicant-files';

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

  // Bytes no image decoder reads: matched byte for byte only.
  const selfie = Buffer.from('the same selfie bytes');
  const frame = Buffer.from('a liveness frame');
  const photo = (file: string) => readFileSync(path.join(TESTDATA, 'faces', file));
  const copyOf = async (image: Buffer) => {
    const { width } = await sharp(image).metadata();
    return sharp(image)
      .resize({ width: Math.round(width * 0.8) })
      .jpeg({ quality: 70 })
      .toBuffer();
  };

  it('names the first session when another session of the same account presents the same capture, and no one in another account', async () => {
    const print = await prints.of('selfie', selfie);
    expect(print.perceptual).toBeNull();
    expect(await prints.claim('acc_a', 'ses_1', [print])).toEqual([]);
    expect(await prints.claim('acc_a', 'ses_2', [print])).toEqual([
      { kind: 'selfie', index: 0, session_id: 'ses_1', exact: true },
    ]);
    expect(await prints.claim('acc_b', 'ses_3', [print])).toEqual([]);
    // A session deciding again (a retried decision) does not find itself.
    expect(await prints.claim('acc_a', 'ses_1', [print])).toEqual([]);
  });

  it('claims a whole sequence in one write: frames new to the account are recorded, and only those another session recorded first are named', async () => {
    const frames = await Promise.all(
      Array.from({ length: 12 }, (_, i) => prints.of('liveness', Buffer.from(`frame ${i}`))),
    );
    expect(await prints.claim('acc_m', 'ses_m1', frames.slice(0, 5))).toEqual([]);
    const sightings = await prints.claim('acc_m', 'ses_m2', frames);
    expect(sightings.map((s) => [s.index, s.session_id, s.exact])).toEqual(
      [0, 1, 2, 3, 4].map((index) => [index, 'ses_m1', true]),
    );
    // The seven new frames now belong to the second session.
    expect((await prints.claim('acc_m', 'ses_m3', frames.slice(5))).map((s) => s.session_id)).toEqual(
      Array.from({ length: 7 }, () => 'ses_m2'),
    );
  });

  it("deletes a redacted session's own fingerprints, and only those, so the capture is no longer linked to it", async () => {
    const [s, f] = [await prints.of('selfie', selfie), await prints.of('liveness', frame)];
    await prints.claim('acc_r', 'ses_first', [s, f]);
    await prints.claim('acc_r', 'ses_second', [s]);
    await prints.forget('acc_r', 'ses_second');
    // The second session's sighting owned nothing: the first session still owns the selfie.
    expect(await prints.claim('acc_r', 'ses_third', [s])).toEqual([
      { kind: 'selfie', index: 0, session_id: 'ses_first', exact: true },
    ]);
    await prints.forget('acc_r', 'ses_first');
    const left = await connection
      .db!.collection('capture_fingerprints')
      .find({ _id: { $in: [`acc_r:${s.exact}`, `acc_r:${f.exact}`] } } as never)
      .toArray();
    expect(left).toEqual([]);
    expect(
      await connection.db!.collection('capture_fingerprint_sessions').findOne({ _id: 'acc_r:ses_first' } as never),
    ).toBeNull();
    // With the first session redacted, the next to present the selfie owns it.
    expect(await prints.claim('acc_r', 'ses_fourth', [s])).toEqual([]);
  });

  it("finds a selfie re-encoded at another quality and resized in another session of the account, but not another person's selfie nor the copy in another account", async () => {
    const original = await prints.of('selfie', photo('astronaut__augmented-1.jpg'));
    const copy = await prints.of('selfie', await copyOf(photo('astronaut__augmented-1.jpg')));
    const stranger = await prints.of('selfie', photo('bearded-man__augmented-1.jpg'));
    expect(copy.exact).not.toBe(original.exact);
    expect(await prints.claim('acc_p', 'ses_1', [original])).toEqual([]);
    expect(await prints.claim('acc_p', 'ses_2', [stranger])).toEqual([]);
    expect(await prints.claim('acc_p', 'ses_3', [copy])).toEqual([
      { kind: 'selfie', index: 0, session_id: 'ses_1', exact: false },
    ]);
    expect(await prints.claim('acc_q', 'ses_4', [copy])).toEqual([]);
  });

  it('keeps each hash only as keyed band keys and a sealed value, and drops a redacted session from every band it stood in', async () => {
    const original = await prints.of('liveness', photo('grace-hopper__augmented-2.jpg'));
    const copy = await prints.of('liveness', await copyOf(photo('grace-hopper__augmented-2.jpg')));
    await prints.claim('acc_s', 'ses_1', [original]);
    await prints.claim('acc_s', 'ses_2', [original]);
    const bands = connection.db!.collection<{ _id: string; members: { s: string; h: string }[] }>(
      'capture_perceptual_bands',
    );
    const pointer = await connection
      .db!.collection<{ _id: string; bands: string[] }>('capture_fingerprint_sessions')
      .findOne({ _id: 'acc_s:ses_1' });
    expect(pointer?.bands).toHaveLength(8);
    const stored = await bands.find({ _id: { $in: pointer!.bands } }).toArray();
    expect(stored).toHaveLength(8);
    const text = JSON.stringify(stored);
    expect(text).not.toContain(original.perceptual!);
    expect(
      stored.every(
        (b) =>
          b.members
            .map((m) => m.s)
            .sort()
            .join() === 'ses_1,ses_2',
      ),
    ).toBe(true);
    // The same session's sealed value differs from the other's, so equal hashes are not visible as such.
    expect(new Set(stored[0].members.map((m) => m.h)).size).toBe(2);

    await prints.forget('acc_s', 'ses_1');
    await prints.forget('acc_s', 'ses_2');
    expect(await bands.find({ _id: { $in: pointer!.bands } }).toArray()).toEqual([]);
    expect(await prints.claim('acc_s', 'ses_3', [copy])).toEqual([]);
  });

  it('matches a document photo byte for byte only: every document of one template hashes alike', async () => {
    const page = readFileSync(path.join(TESTDATA, 'documents', 'synthetic-td3-passport-clean-001.jpg'));
    const document = await prints.of('document', page);
    expect(document.perceptual).toBeNull();
    await prints.claim('acc_d', 'ses_1', [document]);
    expect(await prints.claim('acc_d', 'ses_2', [await prints.of('document', await copyOf(page))])).toEqual([]);
    expect(await prints.claim('acc_d', 'ses_3', [document])).toEqual([
      { kind: 'document', index: 0, session_id: 'ses_1', exact: true },
    ]);
  });
});
