import { DynamicBatcher, type BatchingPolicy, type QueuedRequest } from './dynamic-batcher';

type Request = QueuedRequest<string, string>;

/** An executor that records each batch and finishes it only when the test says so. */
function recordingExecutor() {
  const batches: string[][] = [];
  const finishers: Array<() => void> = [];
  const ranks: number[] = [];
  const execute = (batch: Request[], rank: number) => {
    batches.push(batch.map((r) => r.input));
    ranks.push(rank);
    return new Promise<void>((resolve) => {
      finishers.push(() => {
        batch.forEach((r) => r.resolve(`done:${r.input}`));
        resolve();
      });
    });
  };
  return { batches, ranks, execute, finishNext: () => finishers.shift()?.() };
}

const policy = (overrides: Partial<BatchingPolicy> = {}): BatchingPolicy => ({
  maxBatchSize: 4,
  preferredBatchSizes: [],
  maxQueueDelayMs: 50,
  maxQueueSize: 10,
  ...overrides,
});
const tick = () => new Promise((r) => setImmediate(r));

/** Puts a request in the executor first, so what the test submits next meets a busy model. */
function occupy(batcher: DynamicBatcher<string, string>) {
  void batcher.submit('busy', 1, 'busy-shape');
}

describe('DynamicBatcher', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('sends a batch the moment it reaches max_batch_size, without waiting for the delay', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy(), exec.execute);
    occupy(batcher);
    const answers = ['a', 'b', 'c', 'd'].map((x) => batcher.submit(x, 1, 'k'));
    exec.finishNext();
    await tick();
    expect(exec.batches).toEqual([['busy'], ['a', 'b', 'c', 'd']]);
    exec.finishNext();
    await expect(Promise.all(answers)).resolves.toEqual(['done:a', 'done:b', 'done:c', 'done:d']);
  });

  it('sends a preferred batch size immediately', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxBatchSize: 8, preferredBatchSizes: [2] }), exec.execute);
    occupy(batcher);
    void batcher.submit('a', 1, 'k');
    void batcher.submit('b', 1, 'k');
    void batcher.submit('c', 1, 'k');
    exec.finishNext();
    await tick();
    expect(exec.batches).toEqual([['busy'], ['a', 'b']]);
  });

  it('holds a request that arrives while others are in flight for the max queue delay, then sends it alone', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxQueueDelayMs: 50 }), exec.execute);
    void batcher.submit('running', 1, 'k');
    void batcher.submit('a', 1, 'k');
    exec.finishNext();
    await tick();
    jest.advanceTimersByTime(49);
    expect(exec.batches).toEqual([['running']]);
    jest.advanceTimersByTime(1);
    expect(exec.batches).toEqual([['running'], ['a']]);
  });

  it('sends a request that finds the model idle at once: no caller is in flight to wait for', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxQueueDelayMs: 50 }), exec.execute);
    const first = batcher.submit('a', 1, 'k');
    expect(exec.batches).toEqual([['a']]);
    exec.finishNext();
    await expect(first).resolves.toBe('done:a');
    void batcher.submit('b', 1, 'k');
    expect(exec.batches).toEqual([['a'], ['b']]);
  });

  it('sends a lone caller each request at once, one after another, without the delay', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxQueueDelayMs: 50 }), exec.execute);
    for (const x of ['a', 'b', 'c']) {
      const answer = batcher.submit(x, 1, 'k');
      expect(exec.batches.at(-1)).toEqual([x]);
      exec.finishNext();
      await expect(answer).resolves.toBe(`done:${x}`);
    }
  });

  it('holds the first request after a shared batch for the delay, so the callers that batch answered share the next', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxQueueDelayMs: 50 }), exec.execute);
    occupy(batcher);
    const shared = [batcher.submit('a', 1, 'k'), batcher.submit('b', 1, 'k')];
    exec.finishNext();
    await tick();
    jest.advanceTimersByTime(50);
    expect(exec.batches).toEqual([['busy'], ['a', 'b']]);
    exec.finishNext();
    await Promise.all(shared);
    void batcher.submit('a2', 1, 'k');
    expect(exec.batches).toHaveLength(2);
    void batcher.submit('b2', 1, 'k');
    jest.advanceTimersByTime(50);
    expect(exec.batches.at(-1)).toEqual(['a2', 'b2']);
  });

  it('sends a request at once again once the model has been idle for longer than the delay', async () => {
    let now = 0;
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxQueueDelayMs: 50 }), exec.execute, {}, () => now);
    occupy(batcher);
    void batcher.submit('a', 1, 'k');
    void batcher.submit('b', 1, 'k');
    exec.finishNext();
    await tick();
    now += 50;
    jest.advanceTimersByTime(50);
    exec.finishNext();
    await tick();
    now += 51;
    void batcher.submit('later', 1, 'k');
    expect(exec.batches.at(-1)).toEqual(['later']);
  });

  it('lets the queue grow into a bigger batch while the executor is busy', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxBatchSize: 8, maxQueueDelayMs: 0 }), exec.execute);
    void batcher.submit('first', 1, 'k');
    for (const x of ['b', 'c', 'd']) void batcher.submit(x, 1, 'k');
    expect(exec.batches).toEqual([['first']]);
    exec.finishNext();
    await tick();
    expect(exec.batches[1]).toEqual(['b', 'c', 'd']);
  });

  it('runs first the request of the call that arrived first, though it was queued after a later call’s', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxBatchSize: 1 }), exec.execute);
    occupy(batcher);
    void batcher.submit('stage of a later call', 1, 'k', { rank: 200 });
    void batcher.submit('stage of an earlier call', 1, 'k', { rank: 100 });
    void batcher.submit('another stage of the later call', 1, 'k', { rank: 200 });
    for (let i = 0; i < 3; i++) {
      exec.finishNext();
      await tick();
    }
    expect(exec.batches.slice(1)).toEqual([
      ['stage of an earlier call'],
      ['stage of a later call'],
      ['another stage of the later call'],
    ]);
  });

  it('hands the executor the most urgent rank in the batch', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxBatchSize: 3 }), exec.execute);
    occupy(batcher);
    void batcher.submit('a', 1, 'k', { rank: 300 });
    void batcher.submit('b', 1, 'k', { rank: 100 });
    void batcher.submit('c', 1, 'k', { rank: 200 });
    exec.finishNext();
    await tick();
    expect(exec.batches[1]).toEqual(['b', 'c', 'a']);
    expect(exec.ranks[1]).toBe(100);
  });

  it('never puts requests with different non-batch shapes in one batch', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxBatchSize: 2 }), exec.execute);
    occupy(batcher);
    void batcher.submit('wide-1', 1, '48x320');
    void batcher.submit('narrow-1', 1, '48x160');
    void batcher.submit('wide-2', 1, '48x320');
    exec.finishNext();
    await tick();
    expect(exec.batches).toEqual([['busy'], ['wide-1', 'wide-2']]);
  });

  it('counts rows, not requests, against max_batch_size', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxBatchSize: 4 }), exec.execute);
    occupy(batcher);
    void batcher.submit('three-rows', 3, 'k');
    void batcher.submit('two-rows', 2, 'k');
    exec.finishNext();
    await tick();
    jest.advanceTimersByTime(50);
    expect(exec.batches).toEqual([['busy'], ['three-rows']]);
  });

  it('answers RESOURCE_EXHAUSTED when the queue is full', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxQueueSize: 2, maxQueueDelayMs: 1000 }), exec.execute);
    occupy(batcher);
    void batcher.submit('a', 1, 'k');
    void batcher.submit('b', 1, 'k');
    await expect(batcher.submit('c', 1, 'k')).rejects.toMatchObject({ code: 'RESOURCE_EXHAUSTED' });
  });

  it('never runs a request whose deadline passed while it was queued', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxQueueDelayMs: 100 }), exec.execute);
    occupy(batcher);
    const late = batcher.submit('late', 1, 'k', { deadlineMs: Date.now() + 20 }).catch((error: Error) => error);
    const onTime = batcher.submit('on-time', 1, 'k', { deadlineMs: Date.now() + 10_000 });
    jest.advanceTimersByTime(30);
    exec.finishNext();
    await tick();
    await expect(late).resolves.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
    jest.advanceTimersByTime(100);
    expect(exec.batches).toEqual([['busy'], ['on-time']]);
    exec.finishNext();
    await expect(onTime).resolves.toBe('done:on-time');
  });

  it('drops a request whose caller cancelled before it ran', async () => {
    const exec = recordingExecutor();
    const batcher = new DynamicBatcher(policy({ maxQueueDelayMs: 10 }), exec.execute);
    occupy(batcher);
    let cancelled = false;
    const gone = batcher.submit('gone', 1, 'k', { cancelled: () => cancelled }).catch((error: Error) => error);
    cancelled = true;
    exec.finishNext();
    await tick();
    jest.advanceTimersByTime(10);
    await expect(gone).resolves.toMatchObject({ code: 'UNAVAILABLE' });
    expect(exec.batches).toEqual([['busy']]);
  });

  it('fails every request of a batch whose run failed, and keeps serving', async () => {
    let calls = 0;
    const batcher = new DynamicBatcher<string, string>(policy({ maxBatchSize: 2 }), (batch) => {
      calls += 1;
      if (calls === 2) return Promise.reject(new Error('executor crashed'));
      batch.forEach((r) => r.resolve('ok'));
      return Promise.resolve();
    });
    occupy(batcher);
    const failed = [batcher.submit('a', 1, 'k'), batcher.submit('b', 1, 'k')];
    await expect(Promise.all(failed.map((p) => p.catch((e: Error) => e.message)))).resolves.toEqual([
      'executor crashed',
      'executor crashed',
    ]);
    const next = [batcher.submit('c', 1, 'k'), batcher.submit('d', 1, 'k')];
    await tick();
    jest.advanceTimersByTime(50);
    await expect(Promise.all(next)).resolves.toEqual(['ok', 'ok']);
  });
});
