import sharp from 'sharp';

/** Decoded pixels, RGB interleaved, rows top to bottom (the layout task code works in). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
  /**
   * Names the uploaded bytes this was decoded from, when the service remembers work per upload
   * (serving/remembered-images.ts): work derived from the image is keyed by it. Absent on crops and tiles.
   */
  source?: string;
}

/** A fresh JPEG of the image, for crops handed back to callers. */
export async function encodeJpeg(image: RgbImage, quality = 92): Promise<Uint8Array> {
  const out = await sharp(Buffer.from(image.data), {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .jpeg({ quality })
    .toBuffer();
  return new Uint8Array(out);
}
