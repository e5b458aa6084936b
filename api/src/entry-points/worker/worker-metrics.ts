import { Gauge, Registry } from 'prom-client';
import { JobQueueRepository } from '../../data-access/job-queue.repository';

/**
 * The worker's Prometheus series. Gauges are read from the queue when scraped, so every replica
 * reports the same shared backlog (alert on max, not sum). No ids or personal data as labels.
 */
export function workerMetrics(queue: JobQueueRepository): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'bioverify_decisions_pending',
    help: 'Submitted captures whose decision is not made yet (waiting, retrying after an inference outage, or running).',
    registers: [registry],
    async collect() {
      this.set(await queue.pendingDecisions());
    },
  });
  new Gauge({
    name: 'bioverify_webhook_backlog',
    help: 'Webhook deliveries waiting for a worker.',
    registers: [registry],
    async collect() {
      this.set(await queue.deliveryBacklog());
    },
  });
  return registry;
}
