import { Worker } from 'bullmq';
import { AppConfig } from '../../config/env';
import { assertEveryJobHandled, processorFor } from '../../jobs/job-handlers';
import { QueueName, QUEUES } from '../../jobs/job-names';
import { LINEAR_BACKOFF, linearBackoffDelay } from '../../jobs/webhook-retry-policy';
import { DECISION_BACKOFF, decisionBackoffDelay } from '../../jobs/decision-retry-policy';
import { Logger } from '../../shared/logger';
import { composeWorker } from '../../compose-worker';
import { startHealthServer } from './health-server';
import { WorkerMetrics } from './worker-metrics';
import { workerJobHandlers } from './worker-job-handlers';

export interface RunningWorker {
  healthPort: number;
  /** Stops taking jobs, lets the ones in flight finish (bounded), then closes every connection. */
  stop(): Promise<void>;
}

export async function startWorker(config: AppConfig, logger: Logger): Promise<RunningWorker> {
  const ctx = await composeWorker(config, logger);
  const metrics = new WorkerMetrics({
    pendingDecisions: () => ctx.queue.pendingDecisions(),
    deliveryBacklog: () => ctx.queue.deliveryBacklog(),
    outboxPending: () => ctx.outbox.countPending(),
    queueDepths: () => ctx.queue.queueDepths(),
  });
  const handlers = workerJobHandlers(ctx, metrics);
  assertEveryJobHandled(handlers); // before any worker exists: a missing handler is a start-up failure
  const retryIntervalMs = config.WEBHOOK_RETRY_INTERVAL_SECONDS * 1000;
  const concurrency: Record<QueueName, number> = {
    [QUEUES.webhooks]: config.WORKER_CONCURRENCY,
    [QUEUES.expiry]: Math.min(config.WORKER_CONCURRENCY, 20),
    [QUEUES.maintenance]: 1,
    // CPU-bound on the inference service, not here: a few in flight keep its batches full.
    [QUEUES.decisions]: 4,
  };
  const workers = Object.values(QUEUES).map((queue) => {
    const worker = new Worker(queue, processorFor(queue, handlers), {
      connection: ctx.redis,
      prefix: config.REDIS_PREFIX,
      concurrency: concurrency[queue],
      lockDuration: config.WORKER_LOCK_DURATION_MS,
      stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
      // A worker killed mid-job hands it over this many times before BullMQ gives up on it (the
      // outbox sweep still re-enqueues a delivery the store says is owed).
      maxStalledCount: 3,
      settings: {
        backoffStrategy: (attemptsMade, type) =>
          type === LINEAR_BACKOFF
            ? linearBackoffDelay(attemptsMade, retryIntervalMs)
            : type === DECISION_BACKOFF
              ? decisionBackoffDelay(attemptsMade, config.DECISION_RETRY_BASE_MS)
              : 0,
      },
    });
    worker.on('error', (error) => logger.error({ queue, err: error.message }, 'worker error'));
    worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
        logger.warn({ queue, job_id: job.id, err: error.message }, 'job failed for good');
    });
    return worker;
  });
  let stopping = false;
  try {
    await ctx.queue.scheduleSweeps(
      config.OUTBOX_SWEEP_INTERVAL_SECONDS * 1000,
      config.EXPIRY_SWEEP_INTERVAL_SECONDS * 1000,
      config.LIFECYCLE_SWEEP_INTERVAL_SECONDS * 1000,
    );
  } catch (error) {
    // Redis may be down at start: the workers reconnect on their own; the schedules already exist
    // from any earlier start, and the next start (or another replica) upserts them again.
    logger.error({ err: (error as Error).message }, 'could not upsert the sweep schedules');
  }
  const health = await startHealthServer(
    config.WORKER_HEALTH_PORT,
    ctx.readiness,
    () => !stopping && workers.every((w) => w.isRunning()),
    metrics.registry,
  );
  return {
    healthPort: health.port,
    async stop() {
      stopping = true;
      const drained = Promise.all(workers.map((w) => w.close()));
      const deadline = config.SHUTDOWN_GRACE_MS + config.WEBHOOK_TIMEOUT_SECONDS * 1000;
      const timedOut = await Promise.race([
        drained.then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), deadline).unref()),
      ]);
      // Jobs still running past the deadline keep their lock until it lapses; another worker then takes them.
      if (timedOut) await Promise.all(workers.map((w) => w.close(true)));
      health.server.close();
      await ctx.close();
    },
  };
}
