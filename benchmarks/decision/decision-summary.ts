/**
 * The figures of a decision run: one pass's summary and the summary over all passes. The
 * percentiles are scripts/test-support/percentiles.ts (nearest rank, so a p99 is a time that
 * occurred).
 */
import { median, summarise, type LatencySummary } from '../../scripts/test-support/percentiles';
import type { ApplicantTiming } from './applicant-run';

export const CHECKS = ['document', 'antispoof', 'liveness', 'face_match'] as const;
export const PROCESSES = ['inference', 'api', 'worker', 'ferretdb', 'redis', 'bench_client'] as const;
export type ProcessName = (typeof PROCESSES)[number];

export interface PassResult {
  pass: number;
  applicants: number;
  decided: number;
  duration_s: number;
  verifications_per_minute: number;
  load_avg_1m: { start: number; end: number; mean: number };
  document_read: LatencySummary;
  /** Client view: submit sent → first poll answering "done". */
  submit_to_decided: LatencySummary;
  /** Submit sent → the decided_at the worker wrote (no poll delay in it). */
  submit_to_decided_at_server: LatencySummary;
  /** Selfie sent → decided_at (absent from results written before it was kept per pass). */
  selfie_to_decided_at_server?: LatencySummary;
  cpu_ms_per_verification: Record<ProcessName | 'total', number>;
  /** The same less the status polls' own cost (polls in the pass × the calibrated CPU per poll). */
  cpu_ms_per_verification_without_polls: Record<ProcessName | 'total', number>;
  polls: number;
  /** session.run calls and executor ms per verification, per model (inference_run_seconds). */
  model_runs_per_verification?: Record<string, ModelRuns>;
  /** Of `inference`, what its executor processes used (onnxruntime); absent in older results. */
  inference_executor_cpu_ms_per_verification?: number;
  /** Wall ms the inference front spent in garbage collection (its GC metric); absent in older results. */
  inference_front_gc_ms_per_verification?: number;
}

/**
 * One model's work per verification: session.run calls and executor ms; rows run (batch sizes
 * summed) and rows answered from the service's row cache without a run (hit or shared). Rows are
 * absent from results written before they were measured.
 */
export interface ModelRuns {
  runs: number;
  run_ms: number;
  /** The executor process's CPU during those runs (absent in results written before it was measured). */
  cpu_ms?: number;
  rows?: number;
  cached_rows?: number;
}

export interface Summary {
  n: number;
  outcomes: Record<string, number>;
  document_read: LatencySummary;
  liveness_upload: LatencySummary;
  selfie_upload: LatencySummary;
  session_create: LatencySummary;
  capture_start: LatencySummary;
  submit_request: LatencySummary;
  submit_to_decided: LatencySummary;
  submit_to_decided_at_server: LatencySummary;
  /** Absent in results written before the figure existed. */
  selfie_to_decided_at_server?: LatencySummary;
  decided_to_webhook: LatencySummary;
  applicant_total: LatencySummary;
  checks: Record<string, LatencySummary>;
  verifications_per_minute: number | null;
  cpu_ms_per_verification: Record<string, number | null>;
  cpu_ms_per_verification_without_polls: Record<string, number | null>;
  polls_per_verification: number | null;
  /** Median over passes of the executors' share of `inference`; absent in older results. */
  inference_executor_cpu_ms_per_verification?: number;
  /** Median over passes of the front's GC ms; absent in older results. */
  inference_front_gc_ms_per_verification?: number;
}

const round1 = (v: number) => Math.round(v * 10) / 10;

export function summarisePass(
  pass: number,
  timings: ApplicantTiming[],
  window: { start: number; end: number },
  cpuMs: Record<ProcessName, number>,
  load: PassResult['load_avg_1m'],
  cpuPerPoll: Record<ProcessName, number>,
): PassResult {
  const decided = timings.filter((t) => Number.isFinite(t.submit_to_decided_ms)).length;
  const duration = (window.end - window.start) / 1000;
  const polls = timings.reduce((n, t) => n + t.polls, 0);
  const per = (used: (p: ProcessName) => number) => {
    const cpu = Object.fromEntries(
      PROCESSES.map((p) => [p, round1(Math.max(0, used(p)) / Math.max(1, decided))]),
    ) as Record<ProcessName, number>;
    return { ...cpu, total: round1(PROCESSES.reduce((s, p) => s + cpu[p], 0)) };
  };
  return {
    pass,
    applicants: timings.length,
    decided,
    duration_s: round1(duration),
    verifications_per_minute: round1((decided / duration) * 60),
    load_avg_1m: load,
    document_read: summarise(timings.map((t) => t.document_ms)),
    selfie_to_decided_at_server: summarise(timings.map((t) => t.selfie_to_decided_at_ms)),
    submit_to_decided: summarise(timings.map((t) => t.submit_to_decided_ms)),
    submit_to_decided_at_server: summarise(timings.map((t) => t.submit_to_decided_at_ms)),
    cpu_ms_per_verification: per((p) => cpuMs[p]),
    cpu_ms_per_verification_without_polls: per((p) => cpuMs[p] - polls * cpuPerPoll[p]),
    polls,
  };
}

export function summariseAll(
  timings: ApplicantTiming[],
  passes: PassResult[],
  webhookAt: Map<string, number>,
): Summary {
  const outcomes: Record<string, number> = {};
  for (const t of timings) {
    const key = t.failure_reason ? `${t.status} (${t.failure_reason})` : t.status;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  const cpuKeys = [...PROCESSES, 'total'] as const;
  return {
    n: timings.length,
    outcomes,
    document_read: summarise(timings.map((t) => t.document_ms)),
    liveness_upload: summarise(timings.map((t) => t.liveness_ms)),
    selfie_upload: summarise(timings.map((t) => t.selfie_ms)),
    session_create: summarise(timings.map((t) => t.create_ms)),
    capture_start: summarise(timings.map((t) => t.start_ms)),
    submit_request: summarise(timings.map((t) => t.submit_ms)),
    submit_to_decided: summarise(timings.map((t) => t.submit_to_decided_ms)),
    submit_to_decided_at_server: summarise(timings.map((t) => t.submit_to_decided_at_ms)),
    selfie_to_decided_at_server: summarise(timings.map((t) => t.selfie_to_decided_at_ms)),
    decided_to_webhook: summarise(
      timings.flatMap((t) => (webhookAt.has(t.session_id) ? [webhookAt.get(t.session_id)! - t.decided_at] : [])),
    ),
    applicant_total: summarise(
      timings.map(
        (t) => t.create_ms + t.start_ms + t.document_ms + t.liveness_ms + t.selfie_ms + t.submit_to_decided_ms,
      ),
    ),
    checks: Object.fromEntries(
      CHECKS.map((c) => [c, summarise(timings.flatMap((t) => (t.checks[c] ? [t.checks[c].duration_ms] : [])))]),
    ),
    verifications_per_minute: median(passes.map((p) => p.verifications_per_minute)),
    cpu_ms_per_verification: Object.fromEntries(
      cpuKeys.map((k) => [k, median(passes.map((p) => p.cpu_ms_per_verification[k]))]),
    ),
    cpu_ms_per_verification_without_polls: Object.fromEntries(
      cpuKeys.map((k) => [k, median(passes.map((p) => p.cpu_ms_per_verification_without_polls[k]))]),
    ),
    polls_per_verification: median(timings.map((t) => t.polls)),
    inference_executor_cpu_ms_per_verification:
      median(
        passes.flatMap((p) =>
          p.inference_executor_cpu_ms_per_verification === undefined
            ? []
            : [p.inference_executor_cpu_ms_per_verification],
        ),
      ) ?? undefined,
    inference_front_gc_ms_per_verification:
      median(
        passes.flatMap((p) =>
          p.inference_front_gc_ms_per_verification === undefined ? [] : [p.inference_front_gc_ms_per_verification],
        ),
      ) ?? undefined,
  };
}
