import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { StoreTelemetry } from '../../data-access/store-telemetry';

/** Request-path seconds: an upload that runs the document model takes ~1 s, a read ~5 ms. */
const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Store round trips and request stages: ~1 ms when nothing waits, tens when a writer queues. */
const stageBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

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

  readonly stageSeconds = new Histogram({
    name: 'bioverify_http_stage_duration_seconds',
    help: 'Time in each stage of a keyed request (authenticate, rate_limit, body, idempotency, handler)',
    labelNames: ['stage'],
    buckets: stageBuckets,
    registers: [this.registry],
  });
  readonly storeCommandSeconds = new Histogram({
    name: 'bioverify_store_command_duration_seconds',
    help: 'Store round trips by command (find, insert, update…) and outcome (ok or failed), as the driver timed them',
    labelNames: ['command', 'outcome'],
    buckets: stageBuckets,
    registers: [this.registry],
  });

  constructor() {
    // The defaults include the event-loop delay (nodejs_eventloop_lag_*: monitorEventLoopDelay,
    // reset at each scrape) and the GC pauses by kind (nodejs_gc_duration_seconds).
    collectDefaultMetrics({ register: this.registry, prefix: 'bioverify_api_' });
  }

  /** Times the store's commands and counts its busy retries from now on. */
  observeStore(store: StoreTelemetry): void {
    store.onCommand((command, seconds, ok) =>
      this.storeCommandSeconds.observe({ command, outcome: ok ? 'ok' : 'failed' }, seconds),
    );
    new Counter({
      name: 'bioverify_store_busy_retries_total',
      help: 'Store operations tried again after a busy or unreachable store (retried), and those that failed after the last try (exhausted)',
      labelNames: ['outcome'],
      registers: [this.registry],
      collect() {
        const counts = store.retries();
        this.reset();
        this.inc({ outcome: 'retried' }, counts.retried);
        this.inc({ outcome: 'exhausted' }, counts.exhausted);
      },
    });
  }
}
