/**
 * A decision the inference service could not make (down, overloaded, past its deadline) is retried
 * on a doubling delay capped at a minute, for about a day: the applicant is never failed because
 * the service itself is down, and the decision follows within a minute of the service coming back.
 */
export const DECISION_BACKOFF = 'decision';
export const DECISION_MAX_ATTEMPTS = 1_500;
const CAP_MS = 60_000;

export function decisionBackoffDelay(attemptsMade: number, baseMs: number): number {
  return Math.min(CAP_MS, baseMs * 2 ** Math.min(20, Math.max(0, attemptsMade - 1)));
}
