import { Registry } from 'prom-client';
import { ApiMetrics } from '../../../api/src/entry-points/http/api-metrics';
import { WorkerMetrics } from '../../../api/src/entry-points/worker/worker-metrics';
import { InferenceMetrics } from '../../../inference/src/metrics/inference-metrics';

/** The sample names a registry exposes: a histogram's are its _bucket, _sum and _count. */
function seriesOf(registry: Registry): string[] {
  return registry.getMetricsAsArray().flatMap((metric) => {
    const { name, type } = metric as unknown as { name: string; type: string };
    return type === 'histogram' || type === 'summary'
      ? [`${name}_bucket`, `${name}_sum`, `${name}_count`, name]
      : [name];
  });
}

/** Every series the API, the worker and the inference service register, read from their own metric classes. */
export function exportedSeries(): { api: string[]; worker: string[]; inference: string[] } {
  const unused = (): Promise<never> => Promise.reject(new Error('not scraped here'));
  const worker = new WorkerMetrics({
    pendingDecisions: unused,
    deliveryBacklog: unused,
    outboxPending: unused,
    queueDepths: unused,
  });
  return {
    api: seriesOf(new ApiMetrics().registry),
    worker: seriesOf(worker.registry),
    inference: seriesOf(new InferenceMetrics().registry),
  };
}

/** Metric names a PromQL expression mentions: identifiers of our prefixes (functions and labels are not). */
export function seriesNamedIn(expr: string): string[] {
  return [...new Set(expr.replace(/"[^"]*"/g, '""').match(/\b(?:bioverify|inference)_[A-Za-z0-9_:]*/g) ?? [])];
}
