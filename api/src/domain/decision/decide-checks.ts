import { CheckRun, ScoreEvidence } from '../checks/check-results';
import { Decision } from '../usecases/decide-session/decision';
import { CheckVerdict, Checks, FAILURE_REASONS, FailureReason, Person } from '../session-status';
import { addressScore, ADDRESS_TOKEN_LINE } from './address-matching';
import { decideChip } from './chip-decision';
import { decideIntegrity } from './integrity-decision';
import { overallConfidence } from './confidence';
import { DecisionInputs, ReportCheck } from './decision-inputs';
import type { KnownFaceOutcome } from '../known-face/known-face-search';
import { namesMatch } from './name-matching';

export interface DecisionWithEvidence {
  decision: Decision;
  report: Record<string, ReportCheck>;
}

const isReason = (value: string | null): value is FailureReason =>
  value !== null && (FAILURE_REASONS as readonly string[]).includes(value);

function fromRun(run: CheckRun, extraScores: ScoreEvidence[] = []): ReportCheck {
  const scores = [...run.scores, ...extraScores];
  return {
    verdict: run.verdict,
    reason: run.reason,
    scores,
    model: run.models[run.models.length - 1] ?? null,
    models: run.models,
    duration_ms: run.duration_ms,
  };
}

const skipped = (reason: string | null = null): ReportCheck => ({
  verdict: 'SKIPPED',
  reason,
  scores: [],
  model: null,
  models: [],
  duration_ms: 0,
});

/**
 * Turns the checks' outcomes into the session's decision (contract "Decision"): every check that
 * can run has run; the document check also fails on a cross-check mismatch; the failure reason is
 * the first in the contract's precedence; the confidence is the weakest score's (confidence.ts).
 * Pure: the same inputs always give the same decision.
 */
export function decideChecks(input: DecisionInputs): DecisionWithEvidence {
  const reasons: FailureReason[] = [];
  const fail = (reason: string | null) => {
    if (isReason(reason)) reasons.push(reason);
  };

  // Document: the read itself, then the integrator's expectations against what it says.
  const read = input.document;
  const person = read.person;
  const crossScores: ScoreEvidence[] = [];
  const crossReasons: FailureReason[] = [];
  if (person) {
    const nameOk = namesMatch(input.expected.name, person.name);
    crossScores.push({ name: 'name_match', value: nameOk ? 1 : 0, threshold: 1, comparison: 'gte' });
    if (!nameOk) crossReasons.push('NAME_MISMATCH');
    if (input.expected.dob) {
      const dobOk = input.expected.dob === person.dob;
      crossScores.push({ name: 'dob_match', value: dobOk ? 1 : 0, threshold: 1, comparison: 'gte' });
      if (!dobOk) crossReasons.push('DOB_MISMATCH');
    }
    const address = input.expected.address ? addressScore(input.expected.address, person.address) : null;
    if (address) {
      crossScores.push({
        name: 'address_token_share',
        value: address.score,
        threshold: ADDRESS_TOKEN_LINE,
        comparison: 'gte',
      });
      crossScores.push({
        name: 'address_postal_code_match',
        value: address.postalCodeMatches ? 1 : 0,
        threshold: 1,
        comparison: 'gte',
      });
      if (address.score < ADDRESS_TOKEN_LINE || !address.postalCodeMatches) crossReasons.push('ADDRESS_MISMATCH');
    }
  }
  const documentCheck = fromRun(read, crossScores);
  if (read.verdict === 'FAIL') fail(read.reason ?? 'DOCUMENT_UNREADABLE');
  else if (!person) fail('DOCUMENT_UNREADABLE');
  for (const reason of crossReasons) fail(reason);
  const documentFailed = read.verdict === 'FAIL' || !person || crossReasons.length > 0;
  if (documentFailed) {
    documentCheck.verdict = 'FAIL';
    documentCheck.reason =
      read.verdict === 'FAIL'
        ? (read.reason ?? 'DOCUMENT_UNREADABLE')
        : person
          ? (crossReasons[0] ?? null)
          : 'DOCUMENT_UNREADABLE';
  }

  // Faces: a selfie without a face fails liveness as FACE_NOT_DETECTED and skips what needs a face.
  const selfieHasFace = input.antispoof.reason !== 'FACE_NOT_DETECTED';
  const livenessCheck = fromRun(input.liveness);
  if (input.liveness.verdict === 'FAIL') fail(input.liveness.reason ?? 'LIVENESS_FAILED');
  if (!selfieHasFace) {
    livenessCheck.verdict = 'FAIL';
    livenessCheck.reason = 'FACE_NOT_DETECTED';
    fail('FACE_NOT_DETECTED');
  }
  const antispoofCheck = selfieHasFace ? fromRun(input.antispoof) : skipped('FACE_NOT_DETECTED');
  if (selfieHasFace && input.antispoof.verdict === 'FAIL') fail(input.antispoof.reason ?? 'SPOOF_DETECTED');
  // The chip: a failing one fails the session; a verified one's portrait is the face-match
  // reference, with the printed portrait's scores kept beside it as `page_portrait_*`.
  const chip = decideChip(input.documentChip);
  if (chip.check.status === 'FAIL') fail(chip.check.reason);
  const pageScores = (input.faceMatch?.scores ?? []).map((s) => ({ ...s, name: `page_portrait_${s.name}` }));
  const faceReference = chip.reference ?? input.faceMatch;
  let faceMatchCheck: ReportCheck;
  if (!selfieHasFace) faceMatchCheck = skipped('FACE_NOT_DETECTED');
  else if (!faceReference || (!chip.reference && !input.hasPortrait)) faceMatchCheck = skipped('NO_DOCUMENT_PORTRAIT');
  else {
    faceMatchCheck = fromRun(faceReference, chip.reference ? pageScores : []);
    if (faceReference.verdict === 'FAIL') fail(faceReference.reason ?? 'FACE_MATCH_BELOW_THRESHOLD');
  }

  const report: Record<string, ReportCheck> = {
    document: documentCheck,
    liveness: livenessCheck,
    antispoof: antispoofCheck,
    face_match: faceMatchCheck,
    document_chip: chip.report,
  };
  const checks: Checks = {
    document: documentCheck.verdict as CheckVerdict,
    liveness: livenessCheck.verdict as CheckVerdict,
    antispoof: antispoofCheck.verdict as CheckVerdict,
    face_match: faceMatchCheck.verdict as CheckVerdict,
    document_chip: chip.check.status,
  };
  if (input.sanctions) {
    const s = input.sanctions;
    if (s.verdict === 'SKIPPED') {
      report.sanctions = { ...skipped(s.reason), duration_ms: s.duration_ms };
    } else {
      report.sanctions = {
        verdict: s.verdict,
        reason: s.verdict === 'MATCH' ? 'SANCTIONS_MATCH' : null,
        scores: [{ name: 'watchlist_name_score', value: s.score, threshold: s.threshold, comparison: 'gte' }],
        model: null,
        models: [],
        duration_ms: s.duration_ms,
        // The listed person is named on a MATCH only: a near miss on CLEAR would tie the applicant
        // to someone they were cleared of.
        match: s.verdict === 'MATCH' ? s.best : null,
        lists: s.lists,
      };
      if (s.verdict === 'MATCH') fail('SANCTIONS_MATCH');
    }
    checks.sanctions = s.verdict;
  }

  markReused(report, checks, input.reused, fail);
  const knownFaceFails = markKnownFace(report, checks, input.knownFace ?? null, fail);
  const integrity = decideIntegrity(input.integrity);
  markTampered(report, checks, integrity.enforcedFlags.length, fail);

  const failureReason = FAILURE_REASONS.find((reason) => reasons.includes(reason)) ?? null;
  const status = failureReason ? 'FAILED' : 'VERIFIED';
  // A verified chip proves what the page's read only estimates, so the page's own scores (and the
  // printed portrait's, now beside the chip's) no longer bound the confidence: it can only rise.
  const pageSuperseded = chip.check.status === 'PASS' && documentCheck.verdict === 'PASS';
  // known_face is a report signal: it bears on the confidence only when it fails the session.
  const ranScores = Object.entries(report)
    .filter(([name, c]) => c.verdict !== 'SKIPPED' && !(pageSuperseded && name === 'document'))
    .filter(([name]) => name !== 'known_face' || knownFaceFails)
    .flatMap(([, c]) => c.scores)
    .filter((s) => !s.name.startsWith('page_portrait_'));
  if (pageSuperseded) ranScores.push(...crossScores);
  const failedWithoutScore = Object.values(report).some(
    (c) => (c.verdict === 'FAIL' || c.verdict === 'MATCH') && !c.scores.some((s) => !passes(s)),
  );
  // After the confidence: reported signals that decide nothing must not move it.
  report.capture_integrity = integrity.report;
  const decidedPerson: Person | null = person
    ? {
        name: person.name,
        dob: person.dob,
        document_type: person.document_type || input.declaredType,
        document_country: person.document_country,
        document_jurisdiction: null,
        address: person.address,
      }
    : null;
  return {
    decision: {
      status,
      failure_reason: failureReason,
      checks,
      confidence: overallConfidence(ranScores, status === 'FAILED' && failedWithoutScore),
      person: decidedPerson,
      document_expiry: person?.expiry_date || null,
    },
    report,
  };
}

function passes(score: ScoreEvidence): boolean {
  return score.comparison === 'gte' ? score.value >= score.threshold : score.value <= score.threshold;
}

/** The check that judges each kind of capture; a reused one fails it, unless it already failed on its own. */
const REUSE_CHECK = { document: 'document', liveness: 'liveness', selfie: 'antispoof' } as const;

function markReused(
  report: Record<string, ReportCheck>,
  checks: Checks,
  reused: DecisionInputs['reused'],
  fail: (reason: string) => void,
): void {
  if (!reused.length) return;
  fail('CAPTURE_REUSED');
  for (const kind of new Set(reused.map((r) => r.kind))) {
    const name = REUSE_CHECK[kind];
    const check = report[name];
    check.scores.push({
      name: 'captures_reused',
      value: reused.filter((r) => r.kind === kind).length,
      threshold: 0,
      comparison: 'lte',
    });
    if (check.verdict !== 'FAIL') {
      check.verdict = 'FAIL';
      check.reason = 'CAPTURE_REUSED';
      checks[name] = 'FAIL';
    }
  }
}

/**
 * The known_face signal: always in the report when the search ran; under the 'fail' policy a
 * flagged face fails the session with KNOWN_FACE on the face_match check (unless it already
 * failed on its own). Answers whether it failed the session.
 */
function markKnownFace(
  report: Record<string, ReportCheck>,
  checks: Checks,
  outcome: KnownFaceOutcome | null,
  fail: (reason: string) => void,
): boolean {
  if (!outcome) return false;
  const flagged = outcome.matched_sessions.length > 0;
  report.known_face = {
    verdict: flagged ? 'FAIL' : 'PASS',
    reason: flagged ? 'KNOWN_FACE' : null,
    scores: outcome.score ? [outcome.score] : [],
    model: null,
    models: [],
    duration_ms: outcome.duration_ms,
    matched_sessions: outcome.matched_sessions,
  };
  if (!flagged || outcome.policy !== 'fail') return false;
  fail('KNOWN_FACE');
  const faceMatch = report.face_match;
  if (faceMatch.verdict !== 'FAIL') {
    faceMatch.verdict = 'FAIL';
    faceMatch.reason = 'KNOWN_FACE';
    checks.face_match = 'FAIL';
  }
  return true;
}

/** A flagged capture under the `fail` policy fails liveness, the check that vouches the camera saw a live person. */
function markTampered(
  report: Record<string, ReportCheck>,
  checks: Checks,
  flags: number,
  fail: (reason: string) => void,
): void {
  if (flags === 0) return;
  fail('CAPTURE_TAMPERED');
  const check = report.liveness;
  check.scores.push({ name: 'capture_integrity_flags', value: flags, threshold: 0, comparison: 'lte' });
  if (check.verdict !== 'FAIL') {
    check.verdict = 'FAIL';
    check.reason = 'CAPTURE_TAMPERED';
    checks.liveness = 'FAIL';
  }
}
