import { Job } from 'bullmq';
import { JOB_QUEUE, JobName, QueueName } from './job-names';

/** A handler gets the job (ids only) and the lock token, which delayed re-scheduling needs. */
export type JobHandler = (job: Job, token?: string) => Promise<unknown>;
export type JobHandlers = Record<JobName, JobHandler>;

export class MissingJobHandlerError extends Error {}

/**
 * Start-up check: every declared job has a handler, and nothing else is registered. A worker that
 * cannot run a job it may receive must not start, or that job would fail silently at run time.
 */
export function assertEveryJobHandled(handlers: Partial<Record<string, JobHandler>>): asserts handlers is JobHandlers {
  const declared = Object.keys(JOB_QUEUE);
  const missing = declared.filter((name) => typeof handlers[name] !== 'function');
  const unknown = Object.keys(handlers).filter((name) => !declared.includes(name));
  if (missing.length > 0 || unknown.length > 0) {
    throw new MissingJobHandlerError(
      [
        missing.length ? `no handler for job(s): ${missing.join(', ')}` : '',
        unknown.length ? `handler(s) for undeclared job(s): ${unknown.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    );
  }
}

/** One processor per queue that dispatches on the job's declared name. */
export function processorFor(queue: QueueName, handlers: JobHandlers): JobHandler {
  return async (job, token) => {
    const name = job.name as JobName;
    if (JOB_QUEUE[name] !== queue) throw new Error(`job ${job.name} does not belong on queue ${queue}`);
    return handlers[name](job, token);
  };
}
