import { isTransientStoreError } from './transient-store-error';

export interface StoreRetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Delay before the second try; doubled for each try after it, with ±50% jitter. */
  baseDelayMs: number;
}

/**
 * Bounded: three tries over about 0.3 s at most beyond the operations themselves, so a request
 * that meets a blip still answers well inside a client's timeout, and one that meets an outage
 * answers 503 soon rather than piling up behind it.
 */
export const STORE_RETRY: StoreRetryPolicy = { attempts: 3, baseDelayMs: 50 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Busy-store retries since the process started, read by the API's /metrics: a tail made of
 * retries (each one waits 25-150 ms) shows here, apart from slow operations.
 */
export const storeRetryCounts = { retried: 0, exhausted: 0 };

/**
 * Runs `operation` again when it fails with a transient store error (transient-store-error.ts).
 * Only for operations that are safe to run twice: reads, writes by a fixed _id whose duplicate
 * the caller recognises, and $set updates that land the same whether applied once or twice. The
 * last error is rethrown as it is; the error middleware answers it 503 with Retry-After.
 */
export async function retryTransient<T>(
  operation: () => Promise<T>,
  policy: StoreRetryPolicy = STORE_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (!isTransientStoreError(error)) throw error;
      if (attempt >= policy.attempts) {
        storeRetryCounts.exhausted += 1;
        throw error;
      }
      storeRetryCounts.retried += 1;
      const delay = policy.baseDelayMs * 2 ** (attempt - 1);
      await sleep(delay * (0.5 + Math.random()));
    }
  }
}
