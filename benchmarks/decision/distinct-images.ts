/**
 * Makes every uploaded image of a run its own: the test sets hold a few dozen photos, so applicants
 * would otherwise send byte-identical passports, frames and selfies, which a service that remembers
 * what it has seen (the inference row cache) answers without running a model. Real applicants never
 * share a photo. Each image gets the lowest bit of one channel flipped on a sparse grid whose phase
 * comes from `seed`, then is re-encoded as it was (JPEG at high quality, PNG lossless), so every
 * crop a check cuts from it differs from every other applicant's while the picture is unchanged to
 * the eye (and to the checks' verdicts).
 */
import sharp from 'sharp';

const GRID = 7;

export async function distinctImage(image: Buffer, seed: number): Promise<Buffer> {
  const source = sharp(image);
  const { format } = await source.metadata();
  const { data, info } = await source.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const phase = seed % (GRID * GRID);
  const channel = Math.floor(seed / (GRID * GRID)) % info.channels;
  for (let y = Math.floor(phase / GRID); y < info.height; y += GRID) {
    for (let x = phase % GRID; x < info.width; x += GRID) data[(y * info.width + x) * info.channels + channel] ^= 1;
  }
  const raw = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return format === 'png' ? raw.png().toBuffer() : raw.jpeg({ quality: 95 }).toBuffer();
}
