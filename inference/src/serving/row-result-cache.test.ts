import type { HostTensor, ModelConfig, ModelRunner } from '../runtime/model-runner';
import { RowResultCache } from './row-result-cache';

/** A model that answers each row's sum and its first value, and records the rows it ran. */
function countingRunner(options: { fail?: (call: number) => boolean; gate?: Promise<void> } = {}) {
  const ran: number[][] = [];
  const runner: ModelRunner = {
    async infer(_model, inputs) {
      const call = ran.length;
      const x = inputs.x;
      const width = x.dims[1];
      const rows = Array.from({ length: x.dims[0] }, (_, r) =>
        Array.from(x.data.subarray(r * width, (r + 1) * width) as Float32Array),
      );
      ran.push(rows.map((row) => row[0]));
      await options.gate;
      if (options.fail?.(call)) throw new Error('deadline passed');
      const sums = new Float32Array(rows.map((row) => row.reduce((a, b) => a + b, 0)));
      return {
        sum: { dtype: 'float32', dims: [rows.length, 1], data: sums },
        first: { dtype: 'float32', dims: [rows.length], data: new Float32Array(rows.map((row) => row[0])) },
      };
    },
    config: () => ({ version: 1 }) as ModelConfig,
  };
  return { runner, ran };
}

const rows = (...values: number[][]): Record<string, HostTensor> => ({
  x: { dtype: 'float32', dims: [values.length, values[0].length], data: new Float32Array(values.flat()) },
});
const sums = (out: Record<string, HostTensor>) => Array.from(out.sum.data as Float32Array);
const cacheOf = (over: Partial<ConstructorParameters<typeof RowResultCache>[0]> = {}) =>
  new RowResultCache({ models: ['face'], maxBytes: 1 << 20, ttlMs: 60_000, ...over });

describe('RowResultCache', () => {
  it('answers a row it has seen from memory, with the outputs of its first run', async () => {
    const { runner, ran } = countingRunner();
    const cached = cacheOf().wrap(runner);
    const first = await cached.infer('face', rows([1, 2], [3, 4]));
    const again = await cached.infer('face', rows([1, 2], [3, 4]));
    expect(sums(again)).toEqual(sums(first));
    expect(again.sum.dims).toEqual([2, 1]);
    expect(again.first.dims).toEqual([2]);
    expect(ran).toEqual([[1, 3]]);
  });

  it("runs only the rows it has not seen, in one request, and answers in the caller's order", async () => {
    const { runner, ran } = countingRunner();
    const cached = cacheOf().wrap(runner);
    await cached.infer('face', rows([5, 5]));
    const out = await cached.infer('face', rows([1, 1], [5, 5], [2, 2]));
    expect(sums(out)).toEqual([2, 10, 4]);
    expect(ran).toEqual([[5], [1, 2]]);
  });

  it('runs a row repeated within one request once', async () => {
    const { runner, ran } = countingRunner();
    const out = await cacheOf()
      .wrap(runner)
      .infer('face', rows([3, 3], [1, 1], [3, 3]));
    expect(sums(out)).toEqual([6, 2, 6]);
    expect(ran).toEqual([[3, 1]]);
  });

  it('tells a row that differs in a single value from one it has seen', async () => {
    const { runner, ran } = countingRunner();
    const cached = cacheOf().wrap(runner);
    await cached.infer('face', rows([1, 2]));
    expect(sums(await cached.infer('face', rows([1, 2.0001])))).toEqual([Math.fround(1 + 2.0001)]);
    expect(ran).toHaveLength(2);
  });

  it('lets a second caller wait for a row already running instead of running it twice', async () => {
    let open!: () => void;
    const { runner, ran } = countingRunner({
      gate: new Promise((r) => {
        open = r;
      }),
    });
    const cache = cacheOf();
    const cached = cache.wrap(runner);
    const a = cached.infer('face', rows([7, 1]));
    const b = cached.infer('face', rows([7, 1], [8, 1]));
    open();
    expect(sums(await a)).toEqual([8]);
    expect(sums(await b)).toEqual([8, 9]);
    expect(ran).toEqual([[7], [8]]);
    expect(cache.statistics()).toMatchObject({ shared: 1, misses: 2 });
  });

  it('runs the row itself when the run it waited for fails for its own caller', async () => {
    let open!: () => void;
    const { runner, ran } = countingRunner({
      gate: new Promise((r) => {
        open = r;
      }),
      fail: (call) => call === 0,
    });
    const cached = cacheOf().wrap(runner);
    const a = cached.infer('face', rows([7, 1]));
    const b = cached.infer('face', rows([7, 1]));
    open();
    await expect(a).rejects.toThrow('deadline passed');
    expect(sums(await b)).toEqual([8]);
    expect(ran).toEqual([[7], [7]]);
  });

  it('passes models it was not asked to remember straight through', async () => {
    const { runner, ran } = countingRunner();
    const cached = cacheOf().wrap(runner);
    await cached.infer('text', rows([1, 1]));
    await cached.infer('text', rows([1, 1]));
    expect(ran).toHaveLength(2);
  });

  it('forgets a row once its time to live has passed', async () => {
    let now = 0;
    const { runner, ran } = countingRunner();
    const cached = cacheOf({ ttlMs: 1000, now: () => now }).wrap(runner);
    await cached.infer('face', rows([1, 1]));
    now = 999;
    await cached.infer('face', rows([1, 1]));
    now = 2000;
    await cached.infer('face', rows([1, 1]));
    expect(ran).toHaveLength(2);
  });

  it('keeps within its byte budget by dropping the least recently used rows', async () => {
    const { runner } = countingRunner();
    const cache = cacheOf({ maxBytes: 400 });
    const cached = cache.wrap(runner);
    for (let i = 0; i < 20; i++) await cached.infer('face', rows([i, i]));
    const { bytes, entries } = cache.statistics();
    expect(bytes).toBeLessThanOrEqual(400);
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThan(20);
  });
});
