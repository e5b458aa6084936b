import sharp from 'sharp';
import { decodeRgbImage } from './decode-image';
import { DEFAULT_IMAGE_LIMITS } from './image-limits';
import { normalise } from './image-to-tensor';
import { pngBomb } from '../../test/support/png-bomb';
import { stringContaining } from '../../../scripts/test-support/typed-matchers';

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 100, b: 50 } } })
    .jpeg()
    .toBuffer();

async function timedRejection(bytes: Uint8Array) {
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const error = await decodeRgbImage(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  return {
    error,
    ms: performance.now() - started,
    rssGrowthMb: (process.memoryUsage().rss - rssBefore) / 1e6,
  };
}

describe('decodeRgbImage', () => {
  it('decodes a JPEG to interleaved RGB with its dimensions', async () => {
    const image = await decodeRgbImage(await jpeg(64, 48));
    expect([image.width, image.height, image.data.length]).toEqual([64, 48, 64 * 48 * 3]);
    expect(Math.abs(image.data[0] - 200)).toBeLessThan(4);
  });

  it('shrinks on load when asked to keep a side under a maximum', async () => {
    const image = await decodeRgbImage(await jpeg(800, 400), { maxSide: 200 });
    expect([image.width, image.height]).toEqual([200, 100]);
  });

  it('rejects bytes that are not an image with INVALID_ARGUMENT', async () => {
    for (const bytes of [Buffer.from('{"not":"an image"}'), Buffer.alloc(1000, 7), new Uint8Array(0)]) {
      await expect(decodeRgbImage(bytes)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });

  it('rejects a truncated JPEG with INVALID_ARGUMENT', async () => {
    const whole = await jpeg(640, 480);
    await expect(decodeRgbImage(whole.subarray(0, whole.length / 3))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('rejects formats outside the accepted list', async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    await expect(decodeRgbImage(gif)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: stringContaining('format gif'),
    });
  });

  it('rejects a file over the byte cap before parsing it', async () => {
    const tooBig = Buffer.alloc(DEFAULT_IMAGE_LIMITS.maxBytes + 1);
    const { error, ms } = await timedRejection(tooBig);
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: stringContaining('the limit is'),
    });
    expect(ms).toBeLessThan(100);
  });

  it('rejects a PNG header claiming 10 gigapixels quickly and without allocating its pixels', async () => {
    const bomb = pngBomb(100_000, 100_000, 1);
    expect(bomb.length).toBeLessThan(2_000);
    const { error, ms, rssGrowthMb } = await timedRejection(bomb);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(ms).toBeLessThan(250);
    expect(rssGrowthMb).toBeLessThan(50);
  });

  it('rejects a valid 64-megapixel PNG decompression bomb (~64 KB on the wire) quickly and with bounded memory', async () => {
    const bomb = pngBomb(8_000, 8_000);
    expect(bomb.length).toBeLessThan(200_000);
    const { error, ms, rssGrowthMb } = await timedRejection(bomb);
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: stringContaining('8000x8000 pixels'),
    });
    expect(ms).toBeLessThan(250);
    expect(rssGrowthMb).toBeLessThan(50);
  });
});

describe('normalise', () => {
  it('applies colour order, scale, mean and std in the declared layout', () => {
    const rgb = Uint8Array.from([10, 20, 30, 40, 50, 60]); // two pixels
    const tensor = normalise([rgb], {
      width: 2,
      height: 1,
      color: 'BGR',
      scale: 1,
      mean: [0, 10, 20],
      std: [1, 2, 4],
      layout: 'NCHW',
    });
    expect(tensor.dims).toEqual([1, 3, 1, 2]);
    expect(Array.from(tensor.data as Float32Array)).toEqual([30, 60, 5, 20, -2.5, 5]);
    const nhwc = normalise([rgb], {
      width: 2,
      height: 1,
      color: 'RGB',
      scale: 0.5,
      mean: [0, 0, 0],
      std: [1, 1, 1],
      layout: 'NHWC',
    });
    expect(nhwc.dims).toEqual([1, 1, 2, 3]);
    expect(Array.from(nhwc.data as Float32Array)).toEqual([5, 10, 15, 20, 25, 30]);
  });
});
