import { AppError } from '../../../shared/app-error';
import { PHOTO_LIMITS, probeImage } from '../../../shared/image-probe';
import { blobIdsOf, CapturedSide } from '../../capture/capture-state';
import { DocumentType } from '../../session-status';
import { openCaptureForWrite, runUploadCheck } from './capture-access';
import { CaptureDeps } from './capture-deps';
import { documentReadWhere } from '../../../shared/sealer';

export const UPLOADS_PER_CAPTURE = 3;

export interface DocumentSideAnswer {
  side: 'front' | 'back';
  readable: boolean;
  reason: 'DOCUMENT_UNREADABLE' | 'DOCUMENT_INVALID' | 'DOCUMENT_EXPIRED' | null;
  retake: boolean;
  attempts_left: number;
  next: 'back' | 'liveness' | null;
}

/** Only a passport has everything on one page; the other types have a back, where TD1 cards carry the MRZ. */
export const needsBack = (type: string | null): boolean => type !== null && type !== 'passport';

/**
 * Reads a document side at once so the applicant can retake a bad photo (contract: 3 attempts a
 * side; after the last, capture goes on and the decision carries the reason). The answer never
 * holds the person's data; the read itself is kept sealed for the decision.
 */
export async function uploadDocumentSide(
  deps: CaptureDeps,
  input: { id: string; token: string | null; side: 'front' | 'back'; type: DocumentType; image: Buffer },
): Promise<DocumentSideAnswer> {
  const { session, state, stateId } = await openCaptureForWrite(deps, input.id, input.token);
  if (input.side === 'back' && !needsBack(input.type)) {
    throw new AppError('VALIDATION_ERROR', 'A passport has no back side to capture.', [
      { field: 'side', message: 'must be front for a passport' },
    ]);
  }
  const previous = state[input.side];
  const uploads = (previous?.uploads ?? 0) + 1;
  if (uploads > UPLOADS_PER_CAPTURE)
    throw AppError.conflict(`The ${input.side} side has had its ${UPLOADS_PER_CAPTURE} attempts.`);
  await probeImage(input.image, PHOTO_LIMITS, 'body');
  const read = await runUploadCheck(deps, 'body', (inference) =>
    inference.readDocument(input.image, deps.clock.now(), input.type),
  );

  // The front of a card shows the portrait; its machine-readable zone is usually on the back.
  const portraitSideOfCard = input.side === 'front' && needsBack(input.type);
  const readable = read.person !== null || (portraitSideOfCard && read.portrait !== null);
  let reason: DocumentSideAnswer['reason'] = null;
  if (!readable) reason = 'DOCUMENT_UNREADABLE';
  else if (
    read.person &&
    read.verdict === 'FAIL' &&
    (read.reason === 'DOCUMENT_INVALID' || read.reason === 'DOCUMENT_EXPIRED')
  )
    reason = read.reason;
  const attemptsLeft = UPLOADS_PER_CAPTURE - uploads;
  const retake = attemptsLeft > 0 && (!readable || reason === 'DOCUMENT_INVALID');

  const [blobId, portraitId] = await Promise.all([
    deps.blobs.put(input.id, input.image),
    read.portrait ? deps.blobs.put(input.id, read.portrait) : Promise.resolve(null),
  ]);
  const captured: CapturedSide = {
    blob_id: blobId,
    portrait_blob_id: portraitId,
    uploads,
    readable,
    reason,
    read_sealed: await deps.sealer.seal(documentReadWhere(input.id), JSON.stringify({ ...read, portrait: null })),
  };
  await deps.states.setSide(stateId, input.side, captured, input.type, deps.clock.now());
  if (previous) await deps.blobs.delete(blobIdsOf({ front: previous, back: null, liveness: null, selfie: null }));
  deps.logger.info(
    { session_id: session._id, side: input.side, readable, reason, attempts_left: attemptsLeft },
    'document side captured',
  );
  return {
    side: input.side,
    readable,
    reason,
    retake,
    attempts_left: attemptsLeft,
    next: retake ? null : input.side === 'front' && needsBack(input.type) ? 'back' : 'liveness',
  };
}
