import { CapturedSide, CaptureState } from '../../capture/capture-state';
import { Session } from '../../session/session';
import { progressOf } from './capture-progress.usecase';

const session = (fields: Partial<Session> = {}) =>
  ({
    _id: 'ses_x',
    status: 'IN_PROGRESS',
    return_url: 'https://shop.example/done',
    decision_requested_at: null,
    ...fields,
  }) as Session;
const side = (readable: boolean, uploads = 1) =>
  ({
    blob_id: 'b',
    uploads,
    readable,
    reason: null,
    read_sealed: 's',
    portrait_blob_id: null,
  }) as CapturedSide;
const state = (fields: Partial<CaptureState> = {}) =>
  ({
    document_type: null,
    front: null,
    back: null,
    liveness: null,
    selfie: null,
    purged_at: null,
    ...fields,
  }) as CaptureState;
const liveness = { blob_ids: ['f'], timestamps: [0], uploads: 1, face_found_ratio: 1 };
const selfie = (faceFound: boolean, uploads = 1) => ({
  blob_id: 's',
  uploads,
  face_found: faceFound,
  antispoof_json: '{}',
});

describe('the coarse progress a handed-off desktop page follows', () => {
  it('is waiting until a device starts the capture', () => {
    expect(progressOf(session({ status: 'PENDING' }), null)).toEqual({
      status: 'PENDING',
      decision: 'none',
      redirect_url: null,
      step: 'waiting',
    });
  });

  it('stays on the document until every side it needs is captured, a side to retake included', () => {
    expect(progressOf(session(), state()).step).toBe('document');
    expect(progressOf(session(), state({ document_type: 'passport', front: side(false) })).step).toBe('document');
    expect(progressOf(session(), state({ document_type: 'id_card', front: side(true) })).step).toBe('document');
    expect(progressOf(session(), state({ document_type: 'id_card', front: side(true), back: side(true) })).step).toBe(
      'liveness',
    );
  });

  it('moves on after the last attempt of an unreadable side, as the capture does', () => {
    expect(progressOf(session(), state({ document_type: 'passport', front: side(false, 3) })).step).toBe('liveness');
  });

  it('follows liveness, then the selfie, then waits for the submit', () => {
    const passport = { document_type: 'passport', front: side(true) };
    expect(progressOf(session(), state({ ...passport, liveness })).step).toBe('selfie');
    expect(progressOf(session(), state({ ...passport, liveness, selfie: selfie(false) })).step).toBe('selfie');
    expect(progressOf(session(), state({ ...passport, liveness, selfie: selfie(true) })).step).toBe('submit');
  });

  it('is checking once submitted, and done with the redirect once decided or expired', () => {
    expect(progressOf(session({ decision_requested_at: new Date() }), null)).toMatchObject({
      decision: 'pending',
      step: 'checking',
    });
    expect(progressOf(session({ status: 'FAILED' }), null)).toEqual({
      status: 'FAILED',
      decision: 'done',
      redirect_url: 'https://shop.example/done?session_id=ses_x&status=FAILED',
      step: 'done',
    });
    expect(progressOf(session({ status: 'EXPIRED' }), null).step).toBe('done');
  });

  it('never carries the per-capture states', () => {
    expect(Object.keys(progressOf(session(), state({ front: side(false) }))).sort()).toEqual([
      'decision',
      'redirect_url',
      'status',
      'step',
    ]);
  });
});
