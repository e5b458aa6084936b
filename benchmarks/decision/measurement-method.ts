/** How each figure of a decision run is measured, as written into its JSON. */
import type { DecisionOptions } from './decision-options';

export function measurementMethod(options: DecisionOptions) {
  return {
    applicants: options.paced
      ? 'production sessions (--paced), each applicant in an enterprise account of its own: clean synthetic TD3 passports (astronaut, bearded-man portraits), augmented selfies of the same photo, and the server-paced liveness challenge performed live over HTTP by the synthetic head of the same photo (scripts/test-support/paced-performer.ts; its rendering is bench_client CPU); "liveness upload" is then the whole challenge, first reveal to the answer that asks for the selfie; expected_name/dob from the passport'
      : 'clean synthetic TD3 passports (astronaut, grace-hopper, bearded-man portraits), augmented selfies of the same photo, synthetic head-motion sequences that perform their challenge, pinned with sandbox.liveness_challenge; expected_name/dob from the passport',
    stack:
      'FerretDB (SQLite) + Redis + inference/src/main.ts (one executor process, declared model configs) + API + one worker, each its own process; LOG_LEVEL=warn; webhooks to a loopback receiver answering 200',
    document_read:
      'wall time of PUT /v1/capture/{id}/document/front as the client saw it (upload, decode, encrypt + store, verify-document over gRPC)',
    submit_to_decided: `headline (submit_to_decided_at_server): from sending POST /submit to the decided_at the worker wrote (report), same machine clock, no poll delay; submit_to_decided: to the first GET /v1/capture/{id} answering decision "done", polled every ${options.poll_ms} ms per applicant`,
    checks:
      'duration_ms per check from GET /v1/sessions/{id}/report: the gRPC call as the API (document, antispoof: at upload) or the worker (liveness, face_match: in parallel at decision) timed it',
    verifications_per_minute:
      'decided applicants / (first session created → last decision seen) per pass; headline = median of passes',
    model_runs_per_verification:
      "per pass, from the inference service's inference_run_seconds histogram (sum and count per model: from the front sending a batch to the executor until its answer, so waiting behind other models' runs in the same executor counts) and inference_run_cpu_seconds_total (the executor process's CPU during each run, onnxruntime's threads included): runs and milliseconds per decided applicant; rows run from inference_batch_size (sum) and rows answered from the row cache (inference_row_cache_rows_total, hit + shared)",
    poll_cost:
      'after the passes, `concurrency` clients poll a decided session back to back for 5 s; CPU per poll per process; cpu_ms_per_verification_without_polls subtracts polls × that',
    cpu: 'utime + stime from /proc/<pid>/stat (inference: the front and its executor child) over each pass, divided by decided applicants; bench_client is this process (process.cpuUsage); includes status polling, session creation and report fetches; headline = median of passes',
    warmup: `${options.warmup} applicants before the first pass, not measured`,
  };
}
