import { CaptureState } from '../../capture/capture-state';
import type { FaceGallery, KnownFace, KnownFaces } from '../../ports/known-faces';
import type { Session } from '../../session/session';
import { rememberDecidedFace } from './remember-decided-face';
import { plainSealer, submittedCapture } from './submitted-capture.fixture';

const embedding = Buffer.from(new Float32Array([0.6, 0.8]).buffer).toString('base64');
const read = {
  verdict: 'PASS',
  reason: null,
  scores: [],
  models: [],
  duration_ms: 1,
  person: { name: 'ADA LOVELACE', dob: '1990-12-10' },
  portrait: null,
  format: 'TD3',
  corrections: [],
};
const faceMatchRun = {
  verdict: 'PASS',
  reason: null,
  scores: [{ name: 'cosine_similarity', value: 0.7, threshold: 0.3, comparison: 'gte' }],
  models: [],
  duration_ms: 400,
  embedding_model: 'face-embedding@3',
};

const capture = (purged = false): CaptureState =>
  submittedCapture({
    read,
    livenessRun: { ...faceMatchRun, scores: [], failed_step: null, per_frame: [] },
    faceMatchRun,
    faceEmbeddingSealed: embedding,
    purged,
  });

class Gallery implements KnownFaces {
  readonly remembered: Array<{ gallery: FaceGallery; face: KnownFace }> = [];
  constructor(private readonly stored: boolean) {}
  identityKey = (identity: string) => `key(${identity})`;
  faces = () => Promise.resolve([]);
  stillKnown = () => Promise.resolve(this.stored);
  remember = (gallery: FaceGallery, face: KnownFace) => {
    this.remembered.push({ gallery, face });
    return Promise.resolve();
  };
  forget = () => Promise.resolve();
}

function deps(gallery: Gallery, state: CaptureState | null) {
  return {
    knownFaces: gallery,
    states: { find: () => Promise.resolve(state) },
    blobs: { get: () => Promise.reject(new Error('no image is needed: the face match was made at upload')) },
    sealer: plainSealer,
    inference: {},
  } as unknown as Parameters<typeof rememberDecidedFace>[0];
}

const decided = (fields: Partial<Session>) =>
  ({ _id: 'ses_1', account_id: 'acct_a', environment: 'production', failure_reason: null, ...fields }) as Session;

describe('the face of a session decided by a worker that died before remembering it', () => {
  it('is remembered by the retried job, from the face match made at upload, keyed by the document identity', async () => {
    const gallery = new Gallery(false);
    expect(await rememberDecidedFace(deps(gallery, capture()), decided({ status: 'VERIFIED' }), 1)).toBe(true);
    expect(gallery.remembered).toHaveLength(1);
    const [{ gallery: where, face }] = gallery.remembered;
    expect(where).toEqual({
      accountId: 'acct_a',
      environment: 'production',
      space: { metric: 'cosine_similarity', model: 'face-embedding@3' },
    });
    expect(face.session_id).toBe('ses_1');
    expect(face.identity_key).toMatch(/^key\(/);
    expect(Array.from(face.embedding)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
  });

  it('is remembered for a session failed only for being a known face, as the decision itself does', async () => {
    const gallery = new Gallery(false);
    const session = decided({ status: 'FAILED', failure_reason: 'KNOWN_FACE' });
    expect(await rememberDecidedFace(deps(gallery, capture()), session, 1)).toBe(true);
  });

  it('is not added for another failure, when it is already stored, or once the captures are purged (redacted)', async () => {
    const failed = new Gallery(false);
    expect(
      await rememberDecidedFace(
        deps(failed, capture()),
        decided({ status: 'FAILED', failure_reason: 'LIVENESS_FAILED' }),
        1,
      ),
    ).toBe(false);
    const stored = new Gallery(true);
    expect(await rememberDecidedFace(deps(stored, capture()), decided({ status: 'VERIFIED' }), 1)).toBe(false);
    const purged = new Gallery(false);
    expect(await rememberDecidedFace(deps(purged, capture(true)), decided({ status: 'VERIFIED' }), 1)).toBe(false);
    expect([...failed.remembered, ...stored.remembered, ...purged.remembered]).toEqual([]);
  });
});
