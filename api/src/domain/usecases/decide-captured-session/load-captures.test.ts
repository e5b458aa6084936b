import { CaptureState } from '../../capture/capture-state';
import { TextSealer } from '../../../shared/sealer';
import { packFrames } from '../../capture/frame-pack';
import { loadCaptures } from './load-captures';

/** Sealing is the vault's concern (tested with it); here a read is stored as its JSON, bound to nothing. */
const sealer: TextSealer = {
  seal: (_where, plaintext) => Promise.resolve(plaintext),
  open: (_where, stored) => Promise.resolve(stored),
};
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

function state(overrides: { framesBlob?: string; portraitBlob?: string } = {}): CaptureState {
  const now = new Date();
  return {
    _id: 'ses_1:1',
    session_id: 'ses_1',
    attempt: 1,
    token_hash: 'h',
    challenge: ['TURN_LEFT'],
    document_type: 'passport',
    front: {
      blob_id: 'doc',
      uploads: 1,
      readable: true,
      reason: null,
      read_sealed: JSON.stringify(read),
      portrait_blob_id: overrides.portraitBlob ?? 'portrait-1',
    },
    back: null,
    liveness: {
      blob_ids: [overrides.framesBlob ?? 'frames-1'],
      timestamps: [0],
      uploads: 1,
      face_found_ratio: 1,
    },
    selfie: {
      blob_id: 'selfie',
      uploads: 1,
      face_found: true,
      antispoof_json: JSON.stringify({ ...livenessRun, duration_ms: 300 }),
      antispoof_frames_blob_id: 'frames-1',
      liveness_json: JSON.stringify(livenessRun),
      liveness_blob_id: 'frames-1',
      face_match_json: JSON.stringify(faceMatchRun),
      face_match_portrait_blob_id: 'portrait-1',
    },
    last_write_at: now,
    submitted_at: now,
    purge_after: null,
    purged_at: null,
    created_at: now,
  };
}

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
