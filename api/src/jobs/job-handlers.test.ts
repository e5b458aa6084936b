import { WorkerContext } from '../compose-worker';
import { workerJobHandlers } from '../entry-points/worker/worker-job-handlers';
import { WorkerMetrics } from '../entry-points/worker/worker-metrics';
import { assertEveryJobHandled, MissingJobHandlerError } from './job-handlers';
import { JOB_QUEUE, JOBS } from './job-names';
import { linearBackoffDelay, WEBHOOK_MAX_ATTEMPTS } from './webhook-retry-policy';

describe('job declarations', () => {
  const noop = () => Promise.resolve();

  it('refuse to start a worker when a declared job has no handler, naming it', () => {
    const handlers: Record<string, typeof noop> = {
      [JOBS.deliverWebhook]: noop,
      [JOBS.expireSession]: noop,
      [JOBS.sweepOutbox]: noop,
    };
    expect(() => assertEveryJobHandled(handlers)).toThrow(MissingJobHandlerError);
    expect(() => assertEveryJobHandled(handlers)).toThrow(JOBS.sweepExpiry);
  });

  it('refuse a handler for a job nobody declared', () => {
    const handlers = {
      ...Object.fromEntries(Object.keys(JOB_QUEUE).map((name) => [name, noop])),
      'send-fax': noop,
    };
    expect(() => assertEveryJobHandled(handlers)).toThrow('send-fax');
  });

  it('are all handled by the worker entry point', () => {
    expect(() => assertEveryJobHandled(workerJobHandlers({} as WorkerContext, {} as WorkerMetrics))).not.toThrow();
  });

  it('allow the first attempt plus three retries, waiting the interval times the retry number', () => {
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(4);
    expect([1, 2, 3].map((n) => linearBackoffDelay(n, 30_000))).toEqual([30_000, 60_000, 90_000]);
  });
});
