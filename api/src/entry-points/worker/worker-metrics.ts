import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DecisionMetrics } from '../../domain/ports/decision-metrics';

/** What the worker's gauges read when scraped: shared state, so every replica reports the same value (alert on max, not sum). */
export interface WorkerBacklogs {
  pendingDecisions(): Promise<number>;
  deliveryBacklog(): Promise<number>;
  outboxPending(): Promise<number>;
  queueDepths(): Promise<Array<{ queue: string; state: string; jobs: number }>>;
}

export type DeliveryOutcome = 'delivered' | 'skipped' | 'retry_scheduled' | 'failed' | 'error';

/** Submit → decided: seconds when inference is up, minutes while it is retried through an outage. */
const decisionBuckets = [0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300, 900];

/** The worker's Prometheus series. Labels are statuses, reasons, outcomes and queue names only. */
export class WorkerMetrics implements DecisionMetrics {
  readonly registry = new Registry();
  private readonly decisions = new Counter({
    name: 'bioverify_decisions_total',
    help: 'Sessions decided, by status and failure reason ("none" when verified)',
    labelNames: ['status', 'failure_reason'],
    registers: [this.registry],
  });
  private readonly decisionSeconds = new Histogram({
    name: 'bioverify_decision_latency_seconds',
    help: 'From the applicant submitting the capture to the decision being written',
    buckets: decisionBuckets,
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'bioverify_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retry_scheduled, failed for good, skipped, error)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  constructor(backlogs: WorkerBacklogs) {
    collectDefaultMetrics({ register: this.registry, prefix: 'bioverify_worker_' });
    new Gauge({
      name: 'bioverify_decisions_pending',
      help: 'Submitted captures whose decision is not made yet (waiting, retrying after an inference outage, or running).',
      registers: [this.registry],
      async collect() {
        this.set(await backlogs.pendingDecisions());
      },
    });
    new Gauge({
      name: 'bioverify_webhook_backlog',
      help: 'Webhook deliveries waiting for a worker.',
      registers: [this.registry],
      async collect() {
        this.set(await backlogs.deliveryBacklog());
      },
    });
    new Gauge({
      name: 'bioverify_webhook_outbox_pending',
      help: 'Decided sessions whose webhook is owed and not yet settled (delivered or failed) in the store.',
      registers: [this.registry],
      async collect() {
        this.set(await backlogs.outboxPending());
      },
    });
    new Gauge({
      name: 'bioverify_queue_jobs',
      help: 'Jobs in each BullMQ queue, by state',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { queue, state, jobs } of await backlogs.queueDepths()) this.set({ queue, state }, jobs);
      },
    });
  }

  decisionMade(status: string, failureReason: string | null, latencySeconds: number): void {
    this.decisions.inc({ status, failure_reason: failureReason ?? 'none' });
    this.decisionSeconds.observe(latencySeconds);
  }

  webhookDelivery(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }
}
