/** The first attempt plus up to three retries (contract.md, Webhooks). */
export const WEBHOOK_MAX_ATTEMPTS = 4;

export const LINEAR_BACKOFF = 'linear';

/** Linear backoff: the n-th retry waits n × the interval (attemptsMade counts failed attempts). */
export function linearBackoffDelay(attemptsMade: number, intervalMs: number): number {
  return Math.max(1, attemptsMade) * intervalMs;
}
