import sharp from 'sharp';

/** Decoded pixels, RGB interleaved, rows top to bottom. */
export interface RgbImage { data: Uint8Array; width: number; height: number }

/** Decodes any format sharp reads, honouring EXIF orientation as a phone camera writes it. */
export async function decodeRgb(bytes: Uint8Array): Promise<RgbImage> {
  const { data, info } = await sharp(bytes).rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** A fresh JPEG of the image, for crops handed back to callers. */
export async function encodeJpeg(image: RgbImage, quality = 92): Promise<Uint8Array> {
  const out = await sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 3 } }).jpeg({ quality }).toBuffer();
  return new Uint8Array(out);
}
