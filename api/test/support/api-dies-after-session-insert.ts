/**
 * The real API process, except that the moment a new session has been written to the store (its
 * expiry timer is about to be scheduled, the response not yet stored or sent), the process
 * SIGKILLs itself: the crash an Idempotency-Key retry must survive without a second session.
 */
import { JobQueueRepository } from '../../src/data-access/job-queue.repository';

JobQueueRepository.prototype.scheduleExpiry = async function dieAfterInsert(): Promise<void> {
  process.kill(process.pid, 'SIGKILL');
  await new Promise(() => undefined);
};

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the patch on purpose
require('../../src/entry-points/http/main');
