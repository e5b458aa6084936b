import type { IssuedChallenge } from '../../chip/chip-verification';
import { chipMrzMismatches } from '../../chip/chip-mrz-match';
import type { ChipInput } from '../../decision/decision-inputs';
import type { ChipVerifier } from '../../ports/chip-verifier';
import type { InferenceChecks } from '../../ports/inference-checks';
import type { Session } from '../../session/session';
import type { Clock } from '../../../shared/clock';
import { chipFilesOf, type ChipUploadBody } from '../capture/upload-chip.usecase';
import type { LoadedCaptures } from './load-captures';

export interface ChipInputDeps {
  chip: ChipVerifier;
  inference: Pick<InferenceChecks, 'matchFaces'>;
  clock: Clock;
}

/**
 * Verifies the chip the capture holds, for the decision: passive and active authentication
 * (sandbox sessions also trust the project's test CSCA, production ones never), DG1 against the
 * page's MRZ, and, for a chip that passed both, its portrait against the selfie. The active
 * authentication challenge was judged fresh or not when the answer arrived, so it is replayed
 * here as it stood then: the decision may run long after the 5 minutes.
 */
export async function chipInputFor(
  deps: ChipInputDeps,
  session: Pick<Session, 'document_chip' | 'environment'>,
  captures: Pick<LoadedCaptures, 'chip' | 'read' | 'selfie'>,
  selfieHasFace: boolean,
): Promise<ChipInput> {
  const mode = session.document_chip ?? 'optional';
  const none: ChipInput = { mode, verification: null, mrzMismatches: [], portraitMatch: null, duration_ms: 0 };
  if (mode === 'off' || !captures.chip) return none;
  const started = performance.now();
  const files = chipFilesOf(JSON.parse(captures.chip.body.toString('utf8')) as ChipUploadBody);
  const now = deps.clock.now();
  const answered = files.activeAuthentication?.challenge;
  const fresh = captures.chip.stored.challenge_fresh;
  const challenge: IssuedChallenge | null =
    answered && fresh !== null ? { challenge: answered, expiresAt: now, used: !fresh } : null;
  const verification = await deps.chip.verify(files, {
    now,
    challenge,
    trustTestCsca: session.environment === 'sandbox',
  });
  const person = captures.read.person;
  const mrzMismatches = verification.verdict === 'PASS' && person ? chipMrzMismatches(verification.mrz, person) : [];
  const portraitMatch =
    verification.verdict === 'PASS' &&
    mrzMismatches.length === 0 &&
    verification.portrait &&
    captures.selfie &&
    selfieHasFace
      ? await deps.inference.matchFaces(verification.portrait, captures.selfie)
      : null;
  const { verdict, reason, detail, evidence } = verification;
  return {
    mode,
    verification: { verdict, reason, detail, evidence },
    mrzMismatches,
    portraitMatch,
    duration_ms: Math.round(performance.now() - started),
  };
}
