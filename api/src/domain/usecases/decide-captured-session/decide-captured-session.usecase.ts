import countries from 'i18n-iso-countries';
import { TextSealer } from '../../../shared/sealer';
import { CheckRun, LivenessRun } from '../../checks/check-results';
import { decideChecks } from '../../decision/decide-checks';
import { DecisionInputs } from '../../decision/decision-inputs';
import { AccountLookup } from '../../ports/account-store';
import { CaptureBlobStore, CaptureStateStore } from '../../ports/capture-stores';
import { DecisionMetrics } from '../../ports/decision-metrics';
import { InferenceChecks } from '../../ports/inference-checks';
import { SanctionsScreening } from '../../ports/sanctions-screening';
import { ApplicantSessions } from '../../ports/session-reads';
import { SessionTransitions } from '../../ports/session-transitions';
import { DECIDED_STATUSES, OPEN_STATUSES } from '../../session-status';
import { attemptOf } from '../capture/capture-access';
import { endCapture, EndCaptureDeps } from '../capture/end-capture';
import { decideSession, DecideDeps } from '../decide-session/decide-session.usecase';
import { LoadedCaptures, loadCaptures } from './load-captures';
import { chipInputFor } from './chip-input';
import { reusedCaptures } from './capture-reuse';
import { CaptureFingerprints } from '../../ports/capture-fingerprints';
import { KnownFaces } from '../../ports/known-faces';
import { searchKnownFace } from './known-face';
import { rememberDecidedFace } from './remember-decided-face';
import { ChipVerifier } from '../../ports/chip-verifier';

export interface DecideCapturedDeps extends DecideDeps, EndCaptureDeps {
  sessions: ApplicantSessions & SessionTransitions;
  states: CaptureStateStore;
  blobs: CaptureBlobStore;
  sealer: TextSealer;
  accounts: AccountLookup;
  inference: InferenceChecks;
  sanctions: SanctionsScreening;
  chip: ChipVerifier;
  fingerprints: CaptureFingerprints;
  knownFaces: KnownFaces;
  /** Absent where nothing is reported (tests, tools); the worker passes its Prometheus series. */
  metrics?: DecisionMetrics;
}

export type DecideOutcome = 'decided' | 'already-ended' | 'stale-attempt' | 'not-submitted' | 'gone';

async function screen(
  deps: DecideCapturedDeps,
  person: DecisionInputs['document']['person'],
): Promise<NonNullable<DecisionInputs['sanctions']>> {
  const started = performance.now();
  if (!person) return { verdict: 'SKIPPED', reason: 'NO_NAME_READ', duration_ms: 0 };
  const nationality = person.nationality ? (countries.alpha3ToAlpha2(person.nationality) ?? null) : null;
  const outcome = await deps.sanctions.screen({ name: person.name, dob: person.dob || null, nationality });
  return { ...outcome, duration_ms: Math.round(performance.now() - started) };
}

/**
 * The `decide-session` job: runs the checks that need the whole capture (liveness with the issued
 * challenge, face match of the document portrait against the selfie, sanctions for accounts with
 * the add-on), reuses what was read at upload (document, antispoof), decides, and writes the
 * decision with its outbox in one conditional write. The service's own faults (inference down, a
 * deadline) reject, so the job retries and the session waits; a decided session is never decided
 * again, however often the job runs.
 */
export async function decideCapturedSession(
  deps: DecideCapturedDeps,
  sessionId: string,
  attempt: number,
): Promise<DecideOutcome> {
  const session = await deps.sessions.findForApplicant(sessionId);
  if (!session) return 'gone';
  if (attemptOf(session) !== attempt) return 'stale-attempt';
  if (DECIDED_STATUSES.includes(session.status) || !OPEN_STATUSES.includes(session.status)) {
    // A worker that died after the decision, or a cancellation / expiry: only the face a verified
    // decision adds to the gallery, if that worker died before adding it, and the clean-up are left.
    if (await rememberDecidedFace(deps, session, attempt))
      deps.logger.info({ session_id: sessionId }, 'verified face remembered after the decision');
    await endCapture(deps, sessionId, attempt);
    return 'already-ended';
  }
  const state = await deps.states.find(sessionId, attempt);
  if (!state?.submitted_at || state.purged_at) return 'not-submitted';

  const captures = await loadCaptures(deps.blobs, deps.sealer, state);
  // Made at selfie upload over the frames of that time; scored again only for frames retaken since.
  const antispoof = captures.antispoof ?? (await antispoofNow(deps, captures));
  const selfieHasFace = antispoof.reason !== 'FACE_NOT_DETECTED';
  const [liveness, faceMatch, account, documentChip, reused] = await Promise.all([
    // Usually made at selfie upload; made now only for a capture retaken after the selfie.
    captures.liveness ?? livenessNow(deps, captures, selfieHasFace),
    captures.faceMatch ??
      (captures.portrait && captures.selfie && selfieHasFace
        ? deps.inference.matchFaces(captures.portrait, captures.selfie)
        : Promise.resolve(null)),
    deps.accounts.find(session.account_id),
    chipInputFor({ ...deps, inference: deps.inference }, session, captures, selfieHasFace),
    reusedCaptures(deps, session, state),
  ]);
  const sanctions = account?.watchlist ? await screen(deps, captures.read.person) : null;
  const knownFace = await searchKnownFace(
    deps,
    session,
    faceMatch,
    captures.read.person,
    account?.knownFacePolicy ?? 'report',
  );
  const { decision, report } = decideChecks({
    document: captures.read,
    declaredType: captures.declaredType,
    hasPortrait: captures.hasPortrait,
    expected: {
      name: session.expected_name ?? '',
      dob: session.expected_dob,
      address: session.expected_address,
    },
    liveness,
    antispoof,
    faceMatch,
    documentChip,
    reused,
    knownFace: knownFace?.outcome ?? null,
    integrity: {
      signals: state.integrity?.signals ?? null,
      policy: account?.captureIntegrityPolicy ?? 'report',
      enforceable: session.environment === 'production',
    },
    sanctions,
    now: deps.clock.now(),
  });
  const documentType = captures.read.person?.document_type ?? captures.declaredType;
  decision.report = {
    checks: Object.fromEntries(Object.entries(report).map(([name, check]) => [name, withoutModels(check)])),
    document: {
      format: captures.read.format,
      type: documentType,
      country: captures.read.person?.document_country ?? null,
      corrections: captures.read.corrections,
    },
  };
  const decided = await decideSession(deps, session, decision, async (from, update) => {
    const written = await deps.sessions.transitionBySystem(sessionId, from, update);
    if (!written) throw new LostDecisionRace();
    return written;
  }).catch((error: unknown) => {
    if (error instanceof LostDecisionRace) return null;
    throw error;
  });
  // Only a face verified (or failed for being known, and otherwise verified) joins the gallery.
  const verifiedFace = decision.status === 'VERIFIED' || decision.failure_reason === 'KNOWN_FACE';
  if (decided && knownFace && verifiedFace) await deps.knownFaces.remember(knownFace.gallery, knownFace.face);
  await endCapture(deps, sessionId, attempt);
  if (decided)
    deps.metrics?.decisionMade(
      decided.status,
      decision.failure_reason ?? null,
      (deps.clock.now().getTime() - state.submitted_at.getTime()) / 1000,
    );
  deps.logger.info(
    {
      session_id: sessionId,
      status: decided?.status ?? 'lost-race',
      failure_reason: decision.failure_reason,
    },
    'session decided',
  );
  return decided ? 'decided' : 'already-ended';
}

function antispoofNow(deps: DecideCapturedDeps, captures: LoadedCaptures): Promise<CheckRun> {
  if (!captures.frames || !captures.selfie)
    throw new Error('the frames and the selfie are loaded whenever antispoof was not run over these frames at upload');
  return deps.inference.checkAntispoof(captures.selfie, captures.frames);
}

function livenessNow(deps: DecideCapturedDeps, captures: LoadedCaptures, selfieHasFace: boolean): Promise<LivenessRun> {
  if (!captures.frames || !captures.selfie)
    throw new Error('the frames and the selfie are loaded whenever liveness was not run at upload');
  // With the selfie: a photo swapped in after the challenge is not the person who performed it.
  return deps.inference.checkLiveness(
    captures.frames,
    captures.challenge,
    selfieHasFace ? captures.selfie : undefined,
    captures.paced,
  );
}

/** Another writer (a cancellation, an expiry, a second worker) moved the session on first. */
class LostDecisionRace extends Error {}

/** A check's report entry without the models that ran it (the report names them apart). */
function withoutModels<T extends { models?: unknown }>(check: T): Omit<T, 'models'> {
  const copy: Partial<T> = { ...check };
  delete copy.models;
  return copy as Omit<T, 'models'>;
}
