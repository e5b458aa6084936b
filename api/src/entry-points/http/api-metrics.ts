import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** Request-path seconds: an upload that runs the document model takes ~1 s, a read ~5 ms. */
const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The API process's Prometheus series. Labels are route patterns, statuses, environments, capture
 * steps and error codes: bounded sets, never ids or personal data.
 */
export class ApiMetrics {
  readonly registry = new Registry();
  readonly requestSeconds = new Histogram({
    name: 'bioverify_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: requestBuckets,
    registers: [this.registry],
  });
  readonly sessionsCreated = new Counter({
    name: 'bioverify_sessions_created_total',
    help: 'Verification sessions created, by environment (live or sandbox)',
    labelNames: ['environment'],
    registers: [this.registry],
  });
  readonly captureUploads = new Counter({
    name: 'bioverify_capture_uploads_total',
    help: 'Capture writes (start, document, liveness, selfie, submit) answered, by step and outcome (accepted or refused)',
    labelNames: ['step', 'outcome'],
    registers: [this.registry],
  });
  readonly captureRefusals = new Counter({
    name: 'bioverify_capture_refusals_total',
    help: "Capture writes refused or answered with a retake, by step and reason (contract error code, or the answer's reason)",
    labelNames: ['step', 'reason'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'bioverify_api_' });
  }
}
