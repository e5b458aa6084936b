import { RememberedImages, type ImageMemoOptions } from './remembered-images';
import type { RgbImage } from '../images/rgb-image';

const pixels = (n: number): RgbImage => ({ data: new Uint8Array(n * 3).fill(n), width: n, height: 1 });

function setUp(overrides: Partial<ImageMemoOptions> = {}) {
  let clock = 0;
  const memo = new RememberedImages({
    imageBytes: 1000,
    imageTtlMs: 60_000,
    derivedEntries: 3,
    derivedTtlMs: 600_000,
    now: () => clock,
    ...overrides,
  });
  return { memo, advance: (ms: number) => (clock += ms) };
}

describe('the image memo', () => {
  it('decodes the same bytes once and tags the image with a name for them', async () => {
    const { memo } = setUp();
    const decode = jest.fn(() => Promise.resolve(pixels(10)));
    const first = await memo.decode(Buffer.from('upload-a'), decode);
    const again = await memo.decode(Buffer.from('upload-a'), decode);
    expect(decode).toHaveBeenCalledTimes(1);
    expect(again).toBe(first);
    expect(first.source).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const other = await memo.decode(Buffer.from('upload-b'), () => Promise.resolve(pixels(10)));
    expect(other.source).not.toBe(first.source);
  });

  it('does not remember a decode that failed, so the next caller decodes again', async () => {
    const { memo } = setUp();
    await expect(memo.decode(Buffer.from('x'), () => Promise.reject(new Error('corrupt')))).rejects.toThrow('corrupt');
    await new Promise((resolve) => setImmediate(resolve));
    const decode = jest.fn(() => Promise.resolve(pixels(2)));
    await memo.decode(Buffer.from('x'), decode);
    expect(decode).toHaveBeenCalledTimes(1);
  });

  it('lets decoded pixels go once over their byte budget (least recently used first) or past their time', async () => {
    const { memo, advance } = setUp();
    await memo.decode(Buffer.from('a'), () => Promise.resolve(pixels(100))); // 300 bytes
    await memo.decode(Buffer.from('b'), () => Promise.resolve(pixels(100)));
    await memo.decode(Buffer.from('a'), () => Promise.resolve(pixels(100))); // a is now the most recent
    await memo.decode(Buffer.from('c'), () => Promise.resolve(pixels(200))); // 1200 bytes: b goes
    await new Promise((resolve) => setImmediate(resolve));
    expect(memo.statistics()).toMatchObject({ images: 2, imageBytes: 900 });
    const decodeB = jest.fn(() => Promise.resolve(pixels(100)));
    await memo.decode(Buffer.from('b'), decodeB);
    expect(decodeB).toHaveBeenCalledTimes(1);
    advance(60_001);
    const decodeA = jest.fn(() => Promise.resolve(pixels(100)));
    await memo.decode(Buffer.from('a'), decodeA);
    expect(decodeA).toHaveBeenCalledTimes(1);
  });

  it('computes derived work once per upload and operation, and again after it expires', async () => {
    const { memo, advance } = setUp();
    const compute = jest.fn(() => Promise.resolve({ faces: 1 }));
    const first = await memo.derived('upload-a', 'faces', compute);
    expect(await memo.derived('upload-a', 'faces', compute)).toBe(first);
    await memo.derived('upload-a', 'embedding', compute);
    await memo.derived('upload-b', 'faces', compute);
    expect(compute).toHaveBeenCalledTimes(3);
    advance(600_001);
    await memo.derived('upload-a', 'faces', compute);
    expect(compute).toHaveBeenCalledTimes(4);
  });

  it('keeps at most derivedEntries results, dropping the least recently used', async () => {
    const { memo } = setUp();
    for (const source of ['a', 'b', 'c', 'd']) await memo.derived(source, 'faces', () => Promise.resolve(source));
    expect(memo.statistics().results).toBe(3);
    const compute = jest.fn(() => Promise.resolve('a'));
    await memo.derived('a', 'faces', compute);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('does not remember derived work that failed', async () => {
    const { memo } = setUp();
    await expect(memo.derived('a', 'faces', () => Promise.reject(new Error('deadline')))).rejects.toThrow('deadline');
    await new Promise((resolve) => setImmediate(resolve));
    await expect(memo.derived('a', 'faces', () => Promise.resolve('found'))).resolves.toBe('found');
  });
});
