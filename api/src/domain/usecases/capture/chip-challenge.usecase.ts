import { createHash, randomBytes } from 'node:crypto';
import { openCaptureForWrite } from './capture-access';
import { CaptureDeps } from './capture-deps';

/** ICAO 9303-11: active authentication signs an 8-byte challenge; the contract allows it at most 5 minutes. */
const CHALLENGE_BYTES = 8;
export const CHIP_CHALLENGE_TTL_MS = 5 * 60_000;

export const chipChallengeSha256 = (challenge: Buffer): string => createHash('sha256').update(challenge).digest('hex');

/**
 * Draws the challenge the chip signs in active authentication. Only its hash is kept, so the
 * stored capture state cannot answer it for anyone; a new one replaces the last.
 */
export async function issueChipChallenge(
  deps: CaptureDeps,
  input: { id: string; token: string | null },
): Promise<{ challenge: string; expires_at: string }> {
  const { stateId } = await openCaptureForWrite(deps, input.id, input.token);
  const now = deps.clock.now();
  const challenge = randomBytes(CHALLENGE_BYTES);
  const expiresAt = new Date(now.getTime() + CHIP_CHALLENGE_TTL_MS);
  await deps.states.setChipChallenge(
    stateId,
    { sha256: chipChallengeSha256(challenge), expires_at: expiresAt, used: false },
    now,
  );
  return { challenge: challenge.toString('base64'), expires_at: expiresAt.toISOString() };
}
