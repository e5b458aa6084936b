import { retryTransient, storeRetryCounts } from './store-retry';

const busy = () => Object.assign(new Error('database is locked'), { name: 'MongoServerError' });

describe('the busy-store retry', () => {
  it('counts each try again, and a give-up after the last try, for /metrics', async () => {
    const before = { ...storeRetryCounts };
    let tries = 0;
    const answer = await retryTransient(
      () => {
        tries += 1;
        return tries < 2 ? Promise.reject(busy()) : Promise.resolve('landed');
      },
      { attempts: 3, baseDelayMs: 1 },
    );
    expect(answer).toBe('landed');
    await expect(retryTransient(() => Promise.reject(busy()), { attempts: 3, baseDelayMs: 1 })).rejects.toThrow(
      'database is locked',
    );
    expect(storeRetryCounts.retried - before.retried).toBe(1 + 2);
    expect(storeRetryCounts.exhausted - before.exhausted).toBe(1);
  });

  it('counts nothing for an error that is not the store being busy', async () => {
    const before = { ...storeRetryCounts };
    await expect(retryTransient(() => Promise.reject(new Error('bad filter')))).rejects.toThrow('bad filter');
    expect(storeRetryCounts).toEqual(before);
  });
});
