import type { ScoreEvidence } from '../checks/check-results';
import { assessIntegrity, IntegrityFlag } from '../capture/integrity-classification';
import type { IntegrityInput, IntegrityReportEvidence, ReportCheck } from './decision-inputs';

export interface IntegrityOutcome {
  report: ReportCheck;
  /** The flags that fail the session (empty unless the policy is `fail` on a production session). */
  enforcedFlags: IntegrityFlag[];
}

const SCORED_FLAGS: IntegrityFlag[] = [
  'virtual_camera',
  'test_camera',
  'webdriver',
  'software_renderer',
  'probe_unresponsive',
];

/**
 * The `capture_integrity` check: PASS when no flag was raised, FAIL when one was, NOT_PERFORMED
 * when the client sent nothing. One 0/1 score per flag (line 0); the signals follow without the
 * raw camera label or renderer string, which narrow down a device: their class and, for a known
 * virtual camera or software renderer, its product name.
 */
export function decideIntegrity(input: IntegrityInput | null): IntegrityOutcome {
  const policy = input?.policy ?? 'report';
  const enforced = Boolean(input?.enforceable) && policy === 'fail';
  if (!input?.signals) {
    const report: ReportCheck = {
      verdict: 'NOT_PERFORMED',
      reason: null,
      scores: [],
      model: null,
      models: [],
      duration_ms: 0,
      integrity: { policy, enforced, flags: [], notes: [], signals: null },
    };
    return { report, enforcedFlags: [] };
  }
  const signals = input.signals;
  const assessed = assessIntegrity(signals);
  const scores: ScoreEvidence[] = SCORED_FLAGS.filter((flag) => flag !== 'webdriver' || signals.webdriver !== null)
    .filter((flag) => flag !== 'probe_unresponsive' || signals.constraint_probe?.supported)
    .map((flag) => ({ name: flag, value: assessed.flags.includes(flag) ? 1 : 0, threshold: 0, comparison: 'lte' }));
  const failed = assessed.flags.length > 0;
  const evidence: IntegrityReportEvidence = {
    policy,
    enforced,
    flags: assessed.flags,
    notes: assessed.notes,
    signals: {
      client: signals.client,
      camera: assessed.camera,
      webdriver: signals.webdriver,
      renderer: assessed.renderer,
      constraint_probe: signals.constraint_probe,
      frame_timing: signals.frame_timing,
    },
  };
  return {
    report: {
      verdict: failed ? 'FAIL' : 'PASS',
      reason: failed ? 'CAPTURE_TAMPERED' : null,
      scores,
      model: null,
      models: [],
      duration_ms: 0,
      integrity: evidence,
    },
    enforcedFlags: enforced ? assessed.flags : [],
  };
}
