import sharp from 'sharp';
import { CaptureState } from '../../capture/capture-state';
import { DocumentRead } from '../../checks/check-results';
import { InferenceChecks } from '../../ports/inference-checks';
import { Session } from '../../session/session';
import { DocumentType } from '../../session-status';
import { hashToken } from './capture-access';
import { CaptureDeps } from './capture-deps';
import { uploadDocumentSide } from './upload-document.usecase';

const TOKEN = 'ct_device';
const NOW = new Date('2026-11-28T12:00:00Z');

/** Ports stubbed: an open session, its capture state, and an inference service that records its calls. */
function depsRecording(calls: Array<Parameters<InferenceChecks['readDocument']>>): CaptureDeps {
  const read = {
    verdict: 'PASS',
    reason: null,
    person: null,
    portrait: null,
    corrections: [],
  } as unknown as DocumentRead;
  return {
    sessions: {
      findForApplicant: () => Promise.resolve({ _id: 'ses_x', status: 'IN_PROGRESS', attempt: 1 } as Session),
    },
    states: {
      find: () => Promise.resolve({ token_hash: hashToken(TOKEN), purged_at: null } as unknown as CaptureState),
      setSide: () => Promise.resolve(),
    },
    writes: { allow: () => Promise.resolve(true), limit: 60 },
    blobs: { put: () => Promise.resolve('blob_1'), delete: () => Promise.resolve() },
    sealer: { seal: () => Promise.resolve('sealed') },
    inference: {
      readDocument: (...args: Parameters<InferenceChecks['readDocument']>) => {
        calls.push(args);
        return Promise.resolve(read);
      },
    },
    clock: { now: () => NOW },
    logger: { info: () => undefined },
  } as unknown as CaptureDeps;
}

describe('uploading a document side', () => {
  let photo: Buffer;
  beforeAll(async () => {
    photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c8c0b0' } })
      .jpeg()
      .toBuffer();
  });

  it.each<[DocumentType, 'front' | 'back']>([
    ['passport', 'front'],
    ['id_card', 'back'],
    ['residence_permit', 'front'],
  ])('tells the document check the type the applicant declared (%s, %s side)', async (type, side) => {
    const calls: Array<Parameters<InferenceChecks['readDocument']>> = [];
    await uploadDocumentSide(depsRecording(calls), { id: 'ses_x', token: TOKEN, side, type, image: photo });
    expect(calls).toHaveLength(1);
    const [image, now, declared] = calls[0];
    expect(image).toBe(photo);
    expect(now).toBe(NOW);
    expect(declared).toBe(type);
  });
});
