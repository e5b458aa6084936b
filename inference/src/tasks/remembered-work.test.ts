import { RememberedImages } from '../serving/remembered-images';
import type { ModelRunner } from '../runtime/model-runner';
import { rememberedEach } from './remembered-work';

const runner = (withMemo: boolean): ModelRunner => ({
  infer: () => Promise.reject(new Error('not used')),
  config: () => {
    throw new Error('not used');
  },
  memo: withMemo
    ? new RememberedImages({ imageBytes: 1 << 20, imageTtlMs: 60_000, derivedEntries: 100, derivedTtlMs: 60_000 })
    : undefined,
});

type Item = { source?: string; value: number };
const double = (batches: Item[][]) => (items: Item[]) => {
  batches.push(items);
  return Promise.resolve(items.map((i) => i.value * 2));
};

describe('work remembered per upload', () => {
  it('runs every item in one batch when the runner has no memo', async () => {
    const batches: Item[][] = [];
    const items = [{ source: 'a', value: 1 }, { value: 2 }];
    await expect(rememberedEach(runner(false), 'op', items, (i) => i.source, double(batches))).resolves.toEqual([2, 4]);
    expect(batches).toEqual([items]);
  });

  it('runs only the uploads not seen before, in one batch, and answers the rest from memory', async () => {
    const r = runner(true);
    const batches: Item[][] = [];
    await rememberedEach(r, 'op', [{ source: 'a', value: 1 }], (i) => i.source, double(batches));
    const answers = await rememberedEach(
      r,
      'op',
      [{ source: 'a', value: 1 }, { source: 'b', value: 3 }, { value: 5 }, { source: 'b', value: 3 }],
      (i) => i.source,
      double(batches),
    );
    expect(answers).toEqual([2, 6, 10, 6]);
    expect(batches.map((b) => b.map((i) => i.value))).toEqual([[1], [3, 5]]);
  });

  it('keeps operations apart: the same upload asked for another op runs again', async () => {
    const r = runner(true);
    const batches: Item[][] = [];
    await rememberedEach(r, 'faces', [{ source: 'a', value: 1 }], (i) => i.source, double(batches));
    await rememberedEach(r, 'embedding', [{ source: 'a', value: 1 }], (i) => i.source, double(batches));
    expect(batches).toHaveLength(2);
  });

  it('runs items itself when the run it shared with another call fails, and fails when its own run fails', async () => {
    const r = runner(true);
    let failFirst!: (e: Error) => void;
    const other = rememberedEach(
      r,
      'op',
      [{ source: 'a', value: 1 }],
      (i) => i.source,
      () => new Promise<number[]>((_, reject) => (failFirst = reject)),
    );
    const batches: Item[][] = [];
    const mine = rememberedEach(
      r,
      'op',
      [
        { source: 'a', value: 1 },
        { source: 'b', value: 2 },
      ],
      (i) => i.source,
      double(batches),
    );
    await new Promise((resolve) => setImmediate(resolve));
    failFirst(new Error('cancelled'));
    await expect(other).rejects.toThrow('cancelled');
    await expect(mine).resolves.toEqual([2, 4]);
    expect(batches.map((b) => b.map((i) => i.value))).toEqual([[2], [1]]);
    await expect(
      rememberedEach(
        r,
        'op',
        [{ source: 'c', value: 1 }],
        (i) => i.source,
        () => Promise.reject(new Error('own')),
      ),
    ).rejects.toThrow('own');
  });
});
