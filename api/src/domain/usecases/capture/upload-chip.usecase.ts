import { AppError } from '../../../shared/app-error';
import { ChipFiles } from '../../chip/chip-verification';
import { ChipFormatError } from '../../ports/chip-verifier';
import { openCaptureForWrite } from './capture-access';
import { CaptureDeps } from './capture-deps';
import { chipChallengeSha256 } from './chip-challenge.usecase';
import { UPLOADS_PER_CAPTURE } from './upload-document.usecase';

/** The chip files as they travel and are stored: base64 of each EF as read. */
export interface ChipUploadBody {
  sod: string;
  dg1: string;
  dg2: string;
  dg14?: string;
  dg15?: string;
  active_authentication?: { challenge: string; signature: string };
}

export function chipFilesOf(body: ChipUploadBody): ChipFiles {
  const bytes = (value: string) => Buffer.from(value, 'base64');
  return {
    sod: bytes(body.sod),
    dg1: bytes(body.dg1),
    dg2: bytes(body.dg2),
    ...(body.dg14 ? { dg14: bytes(body.dg14) } : {}),
    ...(body.dg15 ? { dg15: bytes(body.dg15) } : {}),
    ...(body.active_authentication
      ? {
          activeAuthentication: {
            challenge: bytes(body.active_authentication.challenge),
            signature: bytes(body.active_authentication.signature),
          },
        }
      : {}),
  };
}

/**
 * Takes the chip files and says only that they parse and which were received: verification is
 * the decision's, so nothing about trust, signatures or the holder is revealed here. The files are
 * kept as one encrypted blob. An answer to the issued challenge spends it; whether this upload's
 * answer used a live, unspent challenge is recorded for the decision (a replay is a clone sign).
 */
export async function uploadChip(
  deps: CaptureDeps,
  input: { id: string; token: string | null; body: ChipUploadBody },
): Promise<{ well_formed: true; received: string[] }> {
  const { session, state, stateId } = await openCaptureForWrite(deps, input.id, input.token);
  const uploads = (state.chip?.uploads ?? 0) + 1;
  if (uploads > UPLOADS_PER_CAPTURE) throw AppError.conflict(`The chip has had its ${UPLOADS_PER_CAPTURE} attempts.`);
  const files = chipFilesOf(input.body);
  let receipt;
  try {
    receipt = deps.chip.inspect(files);
  } catch (error) {
    if (!(error instanceof ChipFormatError)) throw error;
    throw new AppError('VALIDATION_ERROR', 'The chip data is malformed.', [
      { field: error.field, message: error.message },
    ]);
  }
  const now = deps.clock.now();
  const issued = state.chip_challenge ?? null;
  const answered = files.activeAuthentication?.challenge;
  const challengeFresh =
    answered === undefined || issued === null
      ? null
      : !issued.used && issued.expires_at.getTime() >= now.getTime() && chipChallengeSha256(answered) === issued.sha256;
  const blobId = await deps.blobs.put(input.id, Buffer.from(JSON.stringify(input.body), 'utf8'));
  await deps.states.setChip(
    stateId,
    {
      blob_id: blobId,
      uploads,
      data_groups: receipt.data_groups,
      active_authentication: receipt.active_authentication,
      challenge_fresh: challengeFresh,
    },
    now,
  );
  if (answered !== undefined && issued !== null && !issued.used)
    await deps.states.setChipChallenge(stateId, { ...issued, used: true }, now);
  if (state.chip) await deps.blobs.delete([state.chip.blob_id]);
  deps.logger.info({ session_id: session._id, data_groups: receipt.data_groups }, 'chip captured');
  const received = Object.keys(input.body).sort();
  return { well_formed: true, received };
}
