import { CheckRun, DocumentRead } from '../checks/check-results';
import type { KnownFaceOutcome } from '../known-face/known-face-search';
import { decideChecks } from './decide-checks';
import { DecisionInputs } from './decision-inputs';

const model = { name: 'm', version: '1', sha256: 'a'.repeat(64) };
const run = (name: string, value: number, threshold: number, comparison: 'gte' | 'lte' = 'gte'): CheckRun => ({
  verdict: 'PASS',
  reason: null,
  scores: [{ name, value, threshold, comparison }],
  models: [model],
  duration_ms: 5,
});

const document: DocumentRead = {
  ...run('mrz_structure', 0.9, 0.5),
  format: 'TD3',
  person: {
    name: 'GRACE HOPPER',
    dob: '1906-12-09',
    document_type: 'passport',
    document_country: 'US',
    document_number: 'X1234567',
    expiry_date: '2032-01-09',
    nationality: 'USA',
    address: null,
  },
  corrections: [],
  portrait: null,
};

function inputs(knownFace: KnownFaceOutcome | null, overrides: Partial<DecisionInputs> = {}): DecisionInputs {
  return {
    document,
    declaredType: 'passport',
    hasPortrait: true,
    expected: { name: 'Grace Hopper', dob: null, address: null },
    liveness: { ...run('steps_completed', 4, 4), failed_step: null, face_found: [true] },
    antispoof: run('real_score', 0.9, 0.35),
    faceMatch: { ...run('euclidean_distance', 0.3, 0.52, 'lte'), similarity: 0.3 },
    documentChip: null,
    reused: [],
    knownFace,
    integrity: null,
    sanctions: null,
    now: new Date('2026-11-27T00:00:00Z'),
    ...overrides,
  };
}

const flagged = (policy: 'report' | 'fail'): KnownFaceOutcome => ({
  policy,
  score: { name: 'closest_other_identity_euclidean_distance', value: 0.21, threshold: 0.52, comparison: 'gte' },
  matched_sessions: ['ses_first'],
  duration_ms: 1,
});

describe('the known_face signal in the decision', () => {
  it('reports a face verified under another identity without failing the session when the policy is report', () => {
    const { decision, report } = decideChecks(inputs(flagged('report')));
    expect(decision).toMatchObject({ status: 'VERIFIED', failure_reason: null });
    expect(decision.checks).not.toHaveProperty('known_face');
    expect(decision.checks.face_match).toBe('PASS');
    expect(report.known_face).toMatchObject({
      verdict: 'FAIL',
      reason: 'KNOWN_FACE',
      matched_sessions: ['ses_first'],
      scores: [{ name: 'closest_other_identity_euclidean_distance', value: 0.21, threshold: 0.52 }],
    });
  });

  it('leaves the confidence of a verified session as it was without the signal, since it only reports', () => {
    const reported = decideChecks(inputs(flagged('report'))).decision.confidence;
    expect(reported).toBe(decideChecks(inputs(null)).decision.confidence);
  });

  it('fails the session with KNOWN_FACE on the face_match check when the policy is fail', () => {
    const { decision, report } = decideChecks(inputs(flagged('fail')));
    expect(decision).toMatchObject({
      status: 'FAILED',
      failure_reason: 'KNOWN_FACE',
      checks: { face_match: 'FAIL', document: 'PASS', liveness: 'PASS', antispoof: 'PASS' },
    });
    expect(report.face_match).toMatchObject({ verdict: 'FAIL', reason: 'KNOWN_FACE' });
    expect(report.known_face).toMatchObject({ verdict: 'FAIL', reason: 'KNOWN_FACE' });
    expect(decision.confidence).toBeLessThan(0.5);
  });

  it('passes with the closest other identity as its score when no face matches', () => {
    const clear: KnownFaceOutcome = {
      ...flagged('fail'),
      matched_sessions: [],
      score: { ...flagged('fail').score!, value: 0.8 },
    };
    const { decision, report } = decideChecks(inputs(clear));
    expect(decision.status).toBe('VERIFIED');
    expect(report.known_face).toMatchObject({ verdict: 'PASS', reason: null, matched_sessions: [] });
  });

  it('has no known_face entry when the search could not run', () => {
    expect(decideChecks(inputs(null)).report).not.toHaveProperty('known_face');
  });

  it('ranks KNOWN_FACE after FACE_MATCH_BELOW_THRESHOLD and before SANCTIONS_MATCH', () => {
    const belowLine = { ...run('euclidean_distance', 0.7, 0.52, 'lte'), verdict: 'FAIL' as const };
    const weakMatch = decideChecks(
      inputs(flagged('fail'), {
        faceMatch: { ...belowLine, reason: 'FACE_MATCH_BELOW_THRESHOLD', similarity: 0.7 },
      }),
    );
    expect(weakMatch.decision.failure_reason).toBe('FACE_MATCH_BELOW_THRESHOLD');
    expect(weakMatch.report.face_match.reason).toBe('FACE_MATCH_BELOW_THRESHOLD');
    const listed = decideChecks(
      inputs(flagged('fail'), {
        sanctions: {
          verdict: 'MATCH',
          score: 0.97,
          threshold: 0.9,
          best: { list: 'l', entry_id: 'e', matched_name: 'n', score: 0.97 },
          lists: [],
          duration_ms: 1,
        },
      }),
    );
    expect(listed.decision.failure_reason).toBe('KNOWN_FACE');
  });
});
