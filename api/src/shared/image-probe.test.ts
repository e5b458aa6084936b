import { pngBomb } from '../../../inference/test/support/png-bomb';
import { probeImage as inferenceProbe } from '../../../inference/src/images/probe-image';
import { PHOTO_LIMITS, probeImage } from './image-probe';

/** What the inference tier says of an image: null when it takes it. */
const inferenceRefusal = (bytes: Buffer) =>
  inferenceProbe(bytes).then(
    () => null,
    (error: Error) => error.message,
  );
const apiRefusal = (bytes: Buffer) =>
  probeImage(bytes, PHOTO_LIMITS, 'body').then(
    () => null,
    (error: { details?: Array<{ message: string }> }) => error.details?.[0]?.message,
  );

describe('one image limit for the API and the inference tier', () => {
  it('lets a 37-megapixel photo through both (the inference tier used to refuse above 36)', async () => {
    const photo = pngBomb(7_000, 5_286, 1); // 37.0 MP
    expect(await apiRefusal(photo)).toBeNull();
    expect(await inferenceRefusal(photo)).toBeNull();
  });

  it('refuses a photo one row over 40 megapixels in both, naming the limit', async () => {
    const photo = pngBomb(8_000, 5_001, 1);
    expect(await apiRefusal(photo)).toBe('8000x5001 exceeds 40 megapixels');
    expect(await inferenceRefusal(photo)).toContain('exceeds 40 megapixels');
  });

  it('refuses a strip with a side over 16,384 pixels in both, though it is under 40 megapixels', async () => {
    const strip = pngBomb(20_000, 100, 1);
    expect(await apiRefusal(strip)).toBe('20000x100 has a side over 16384 pixels');
    expect(await inferenceRefusal(strip)).toContain('side over 16384');
  });
});
