import { CaptureState } from '../../capture/capture-state';
import { packFrames } from '../../capture/frame-pack';
import { loadCaptures } from './load-captures';
import { plainSealer, submittedCapture } from './submitted-capture.fixture';

const sealer = plainSealer;
const read = {
  verdict: 'PASS',
  reason: null,
  scores: [],
  models: [],
  duration_ms: 1,
  person: null,
  portrait: null,
  format: 'TD3',
  corrections: [],
};
const livenessRun = {
  verdict: 'PASS',
  reason: null,
  scores: [],
  models: [],
  duration_ms: 900,
  failed_step: null,
  per_frame: [],
};
const faceMatchRun = {
  verdict: 'PASS',
  reason: null,
  scores: [],
  models: [],
  duration_ms: 400,
  similarity: 0.3,
};

const state = (overrides: { framesBlob?: string; portraitBlob?: string } = {}): CaptureState =>
  submittedCapture({ read, livenessRun, faceMatchRun, ...overrides });

function blobStore() {
  const fetched: string[] = [];
  const images: Record<string, Buffer> = {
    'frames-1': packFrames([Buffer.from('a')]),
    'frames-2': packFrames([Buffer.from('b'), Buffer.from('c')]),
    'portrait-1': Buffer.from('p1'),
    'portrait-2': Buffer.from('p2'),
    selfie: Buffer.from('s'),
  };
  return {
    fetched,
    get: (_session: string, id: string) => {
      fetched.push(id);
      const image = images[id];
      return image ? Promise.resolve(image) : Promise.reject(new Error(`no blob ${id}`));
    },
  };
}

describe("loading an attempt's captures for its decision", () => {
  it('reuses the liveness and face match made at selfie upload and fetches no image when nothing was retaken', async () => {
    const blobs = blobStore();
    const loaded = await loadCaptures(blobs, sealer, state());
    expect(loaded.liveness).toEqual(livenessRun);
    expect(loaded.faceMatch).toEqual(faceMatchRun);
    expect(loaded.antispoof).toEqual({ ...livenessRun, duration_ms: 300 });
    expect(loaded.hasPortrait).toBe(true);
    expect(blobs.fetched).toEqual([]);
  });

  it('drops an antispoof run that scored the selfie without the frames captured since, and fetches what scoring again needs', async () => {
    const blobs = blobStore();
    const captured = state();
    captured.selfie = { ...captured.selfie!, antispoof_frames_blob_id: null };
    const loaded = await loadCaptures(blobs, sealer, captured);
    expect(loaded.antispoof).toBeNull();
    expect(loaded.liveness).toEqual(livenessRun);
    expect(blobs.fetched.sort()).toEqual(['frames-1', 'selfie']);
  });

  it('drops the upload-time liveness and antispoof and fetches the frames and selfie when the frames were retaken after the selfie', async () => {
    const blobs = blobStore();
    const loaded = await loadCaptures(blobs, sealer, state({ framesBlob: 'frames-2' }));
    expect(loaded.liveness).toBeNull();
    expect(loaded.antispoof).toBeNull();
    expect(loaded.faceMatch).toEqual(faceMatchRun);
    expect(loaded.frames?.map(String)).toEqual(['b', 'c']);
    expect(blobs.fetched.sort()).toEqual(['frames-2', 'selfie']);
  });

  it('drops the upload-time face match and fetches the new portrait when the document was retaken after the selfie', async () => {
    const blobs = blobStore();
    const loaded = await loadCaptures(blobs, sealer, state({ portraitBlob: 'portrait-2' }));
    expect(loaded.faceMatch).toBeNull();
    expect(loaded.liveness).toEqual(livenessRun);
    expect(String(loaded.portrait)).toBe('p2');
    expect(blobs.fetched.sort()).toEqual(['portrait-2', 'selfie']);
  });
});
