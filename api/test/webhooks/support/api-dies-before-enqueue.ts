/**
 * The real API process, except that the moment a decision has been written to the store and the
 * webhook is about to be enqueued, the process SIGKILLs itself: the crash the outbox exists for.
 */
import { JobQueueRepository } from '../../../src/data-access/job-queue.repository';

JobQueueRepository.prototype.enqueueWebhook = async function dieBeforeEnqueue(): Promise<void> {
  process.kill(process.pid, 'SIGKILL');
  await new Promise(() => undefined);
};

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the patch on purpose
require('../../../src/entry-points/http/main');
