import type { ScoreEvidence } from '../checks/check-results';
import type { NativeSignals } from '../capture/capture-integrity';
import { assessIntegrity, INTEGRITY_FLAGS, IntegrityFlag } from '../capture/integrity-classification';
import type { IntegrityInput, IntegrityReportEvidence, ReportCheck } from './decision-inputs';

export interface IntegrityOutcome {
  report: ReportCheck;
  /** The flags that fail the session (empty unless the policy is `fail` on a production session). */
  enforcedFlags: IntegrityFlag[];
}

const WEB_FLAGS: IntegrityFlag[] = [
  'virtual_camera',
  'test_camera',
  'webdriver',
  'software_renderer',
  'probe_unresponsive',
];

/** A native flag is scored when the SDK answered its question (a null fact is not a 0). */
function nativeScored(flag: IntegrityFlag, native: NativeSignals): boolean {
  switch (flag) {
    case 'emulator':
    case 'debugger_attached':
    case 'rooted_or_jailbroken':
    case 'hooking_framework':
      return native.device[flag] !== null;
    case 'external_camera':
      return Boolean(native.camera && native.camera.position !== 'unknown');
    default:
      return false;
  }
}

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
  const native = signals.native ?? null;
  const scores: ScoreEvidence[] = INTEGRITY_FLAGS.filter(
    (flag) => WEB_FLAGS.includes(flag) || (native && nativeScored(flag, native)),
  )
    .filter((flag) => flag !== 'webdriver' || signals.webdriver !== null)
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
      native,
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
