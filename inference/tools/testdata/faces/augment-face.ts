import path from 'node:path';
import sharp from 'sharp';
import type { FaceSource, Region } from './face-sources';
import { between } from '../../../../scripts/test-support/seeded-random';

export interface Augmentation {
  /** Fraction cut from each side (left, top, right, bottom), before scaling. */
  crop: [number, number, number, number];
  scale: number;
  rotationDegrees: number;
  brightness: number;
  jpegQuality: number;
}

/** The source portrait as a PNG buffer: its region cut, up-scaled and padded as the manifest says. */
export async function loadPortrait(assetsDir: string, source: FaceSource, region = source.region): Promise<Buffer> {
  let image = sharp(path.join(assetsDir, source.file)).removeAlpha();
  if (region) image = image.extract(region);
  const cut = await image.png().toBuffer({ resolveWithObject: true });
  let width = cut.info.width;
  let height = cut.info.height;
  let out = sharp(cut.data);
  if (source.upscale) {
    width = Math.round(width * source.upscale);
    height = Math.round(height * source.upscale);
    out = out.resize(width, height, { kernel: 'lanczos3' });
  }
  let buffer: Buffer = await out.png().toBuffer();
  if (source.pad) buffer = await padEvenly(buffer, Math.round(Math.max(width, height) * source.pad));
  return buffer;
}

async function padEvenly(image: Buffer, margin: number): Promise<Buffer> {
  return sharp(image)
    .extend({
      top: margin,
      bottom: margin,
      left: margin,
      right: margin,
      background: { r: 128, g: 128, b: 128 },
    })
    .png()
    .toBuffer();
}

/** Draws one augmentation within ranges that keep the whole face in frame and recognisable. */
export function drawAugmentation(random: () => number): Augmentation {
  return {
    crop: [0, 0, 0, 0].map(() => between(random, 0, 0.08)) as Augmentation['crop'],
    scale: between(random, 0.6, 1.3),
    rotationDegrees: between(random, -8, 8),
    brightness: between(random, 0.75, 1.25),
    jpegQuality: Math.round(between(random, 45, 92)),
  };
}

export async function applyAugmentation(portrait: Buffer, augmentation: Augmentation): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(portrait).metadata();
  const [left, top, right, bottom] = augmentation.crop;
  const region: Region = {
    left: Math.round(width * left),
    top: Math.round(height * top),
    width: Math.round(width * (1 - left - right)),
    height: Math.round(height * (1 - top - bottom)),
  };
  const resized = await sharp(portrait)
    .extract(region)
    .resize(Math.round(region.width * augmentation.scale), Math.round(region.height * augmentation.scale))
    .png()
    .toBuffer();
  return sharp(resized)
    .rotate(augmentation.rotationDegrees, { background: { r: 128, g: 128, b: 128 } })
    .modulate({ brightness: augmentation.brightness })
    .jpeg({ quality: augmentation.jpegQuality })
    .toBuffer();
}
