/**
 * Prometheus series per model: requests, errors by gRPC code, queue time, batch size, run time,
 * queue depth and the execution provider in use. One registry per service instance so tests can
 * start several services in one process.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const secondsBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export class InferenceMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'inference_requests_total',
    help: 'ModelInfer requests accepted for a model',
    labelNames: ['model'],
    registers: [this.registry],
  });
  readonly errors = new Counter({
    name: 'inference_errors_total',
    help: 'ModelInfer requests that failed, by gRPC status code',
    labelNames: ['model', 'code'],
    registers: [this.registry],
  });
  readonly queueSeconds = new Histogram({
    name: 'inference_queue_seconds',
    help: 'Time a request waited in the dynamic batcher',
    labelNames: ['model'],
    buckets: secondsBuckets,
    registers: [this.registry],
  });
  readonly runSeconds = new Histogram({
    name: 'inference_run_seconds',
    help: 'Time the executor spent on one batch (session.run)',
    labelNames: ['model'],
    buckets: secondsBuckets,
    registers: [this.registry],
  });
  readonly runCpuSeconds = new Counter({
    name: 'inference_run_cpu_seconds_total',
    help: 'CPU the executor process used during session.run (all of onnxruntime threads; runs are serial in a process)',
    labelNames: ['model'],
    registers: [this.registry],
  });
  readonly batchSize = new Histogram({
    name: 'inference_batch_size',
    help: 'Rows per executed batch',
    labelNames: ['model'],
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'inference_queue_depth',
    help: 'Requests waiting in the dynamic batcher',
    labelNames: ['model'],
    registers: [this.registry],
  });
  readonly modelInfo = new Gauge({
    name: 'inference_model_info',
    help: 'Served version, execution provider and device in use (value 1)',
    labelNames: ['model', 'version', 'provider', 'device'],
    registers: [this.registry],
  });
  readonly rowCacheRows = new Counter({
    name: 'inference_row_cache_rows_total',
    help: 'Rows the verification checks sent to a cached model: hit (answered from memory), shared (waited for the same row already running), miss (run)',
    labelNames: ['model', 'outcome'],
    registers: [this.registry],
  });
  readonly imageMemoLookups = new Counter({
    name: 'inference_image_memo_lookups_total',
    help: 'Uploads the verification checks decoded (kind decode) and per-upload work they asked for (kind derived): hit (remembered) or miss (done)',
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });
  readonly modelReady = new Gauge({
    name: 'inference_model_ready',
    help: '1 when the model is loaded, checked and warmed up',
    labelNames: ['model'],
    registers: [this.registry],
  });

  constructor() {
    // Node's event-loop delay histogram records the whole sampling interval (an idle loop reads
    // ~precision), so sample every 1 ms to keep that offset small against the 20 ms lag target.
    // Each scrape resets the window.
    collectDefaultMetrics({ register: this.registry, prefix: 'inference_', eventLoopMonitoringPrecision: 1 });
  }
}
