import type { FaceMatchRun } from '../../checks/check-results';
import type { FaceGallery, KnownFace, KnownFaces } from '../../ports/known-faces';
import { normalisedIdentity } from '../../known-face/known-face-search';
import { searchKnownFace } from './known-face';

/** The port stubbed in memory: identities keyed by their normalised form, as the real one keys them by an HMAC of it. */
class GalleryStub implements KnownFaces {
  readonly galleries = new Map<string, KnownFace[]>();
  readonly forgotten = new Set<string>();
  identityKey = (normalised: string) => `key:${normalised}`;
  private key = (g: FaceGallery) => `${g.accountId}|${g.environment}|${g.space.metric}|${g.space.model}`;
  faces = (g: FaceGallery) => Promise.resolve(this.galleries.get(this.key(g)) ?? []);
  stillKnown = (_account: string, sessionId: string) => Promise.resolve(!this.forgotten.has(sessionId));
  remember = (g: FaceGallery, face: KnownFace) => {
    this.galleries.set(this.key(g), [...(this.galleries.get(this.key(g)) ?? []), face]);
    return Promise.resolve();
  };
  forget = (_account: string, sessionId: string) => {
    this.forgotten.add(sessionId);
    return Promise.resolve();
  };
}

const unit = (...v: number[]) => {
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
};
const base64 = (v: Float32Array) => Buffer.from(v.buffer).toString('base64');
const faceMatch = (embedding: Float32Array): FaceMatchRun => ({
  verdict: 'PASS',
  reason: null,
  scores: [{ name: 'euclidean_distance', value: 0.3, threshold: 0.52, comparison: 'lte' }],
  models: [{ name: 'face-embedding', version: '3', sha256: 'b'.repeat(64) }],
  duration_ms: 3,
  similarity: 0.3,
  selfie_embedding: base64(embedding),
  embedding_model: 'face-embedding@3:' + 'b'.repeat(64),
});

const grace = unit(1, 0.1, 0);
const graceAgain = unit(1, 0.15, 0.05);
const stranger = unit(0, 1, 0);
const production = (id: string) => ({ _id: id, account_id: 'acc_1', environment: 'production' as const });

async function verified(
  port: GalleryStub,
  id: string,
  embedding: Float32Array,
  person: { name: string; dob: string },
  environment: 'production' | 'sandbox' = 'production',
) {
  const found = await searchKnownFace(
    { knownFaces: port },
    { ...production(id), environment },
    faceMatch(embedding),
    person,
    'fail',
  );
  if (!found) throw new Error('the search did not run');
  await port.remember(found.gallery, found.face);
  return found.outcome;
}

describe('searching the account’s verified faces before deciding (known_face)', () => {
  it('flags the same face verified before under another name, naming that session, with the policy in force', async () => {
    const port = new GalleryStub();
    await verified(port, 'ses_1', grace, { name: 'GRACE HOPPER', dob: '1906-12-09' });
    const outcome = await verified(port, 'ses_2', graceAgain, { name: 'MATEO MORENO', dob: '1998-08-27' });
    expect(outcome).toMatchObject({ policy: 'fail', matched_sessions: ['ses_1'] });
    expect(outcome.score).toMatchObject({ threshold: 0.52, comparison: 'gte' });
    expect(outcome.score!.value).toBeLessThan(0.52);
  });

  it('does not flag the same person verifying again under the same identity, however the name is written', async () => {
    const port = new GalleryStub();
    await verified(port, 'ses_1', grace, { name: 'GRACE HOPPER', dob: '1906-12-09' });
    const outcome = await verified(port, 'ses_2', graceAgain, { name: 'Hopper,  Grâce', dob: '1906-12-09' });
    expect(outcome).toMatchObject({ matched_sessions: [], score: null });
  });

  it('does not flag another face, and reports how close the closest one came', async () => {
    const port = new GalleryStub();
    await verified(port, 'ses_1', grace, { name: 'GRACE HOPPER', dob: '1906-12-09' });
    const outcome = await verified(port, 'ses_2', stranger, { name: 'ALAN TURING', dob: '1912-06-23' });
    expect(outcome.matched_sessions).toEqual([]);
    expect(outcome.score!.value).toBeGreaterThan(0.52);
  });

  it('never fails a sandbox session on it, and keeps sandbox faces apart from production ones', async () => {
    const port = new GalleryStub();
    await verified(port, 'ses_1', grace, { name: 'GRACE HOPPER', dob: '1906-12-09' });
    const sandbox = await verified(port, 'ses_2', grace, { name: 'TEST PERSON', dob: '2000-01-01' }, 'sandbox');
    expect(sandbox).toMatchObject({ policy: 'report', matched_sessions: [] });
    const again = await verified(port, 'ses_3', grace, { name: 'OTHER TEST', dob: '2000-01-02' }, 'sandbox');
    expect(again).toMatchObject({ policy: 'report', matched_sessions: ['ses_2'] });
  });

  it('does not name a matched session whose face was redacted since the gallery was read', async () => {
    const port = new GalleryStub();
    await verified(port, 'ses_1', grace, { name: 'GRACE HOPPER', dob: '1906-12-09' });
    port.forgotten.add('ses_1');
    const outcome = await verified(port, 'ses_2', grace, { name: 'MATEO MORENO', dob: '1998-08-27' });
    expect(outcome.matched_sessions).toEqual([]);
  });

  it('does not run without a described selfie or an identity read from the document', async () => {
    const port = new GalleryStub();
    const session = production('ses_1');
    const person = { name: 'GRACE HOPPER', dob: '1906-12-09' };
    const described = faceMatch(grace);
    expect(await searchKnownFace({ knownFaces: port }, session, null, person, 'report')).toBeNull();
    expect(
      await searchKnownFace({ knownFaces: port }, session, { ...described, selfie_embedding: null }, person, 'report'),
    ).toBeNull();
    expect(await searchKnownFace({ knownFaces: port }, session, described, null, 'report')).toBeNull();
  });

  it('normalises an identity by letters, case, accents and word order, keeping the date', () => {
    expect(normalisedIdentity('Hopper,  Grâce', '1906-12-09')).toBe(normalisedIdentity('GRACE HOPPER', '1906-12-09'));
    expect(normalisedIdentity('GRACE HOPPER', '1906-12-10')).not.toBe(normalisedIdentity('GRACE HOPPER', '1906-12-09'));
  });
});
