/**
 * Draws one synthetic document image: each side's SVG visual zone, the real portrait, the MRZ in
 * OCR-B, then the sides laid on a plain surface and "captured" (a small rotation, brightness and
 * JPEG quality drawn from the seed) so a reader never sees the same perfect pixels twice.
 */
import sharp, { type OverlayOptions } from 'sharp';
import type { CardSide } from './document-layouts';
import { mrzBlock } from './mrz-text-image';

export interface Capture {
  rotationDegrees: number;
  brightness: number;
  jpegQuality: number;
  surfaceGrey: number;
}

export interface RenderSpec {
  sides: CardSide[];
  mrzLines: string[];
  /** PNG of the holder's portrait, or null to leave the photo area empty. */
  portrait: Buffer | null;
  /** Gaussian blur applied to the MRZ print only (a smudged or out-of-focus zone); 0 for none. */
  mrzBlurSigma: number;
  capture: Capture;
}

async function drawSide(side: CardSide, spec: RenderSpec): Promise<Buffer> {
  const layers: OverlayOptions[] = [];
  if (side.portrait) {
    const box = side.portrait;
    const photo = spec.portrait
      ? await sharp(spec.portrait).resize(box.width, box.height, { fit: 'cover', position: 'top' }).png().toBuffer()
      : await sharp({
          create: {
            width: box.width,
            height: box.height,
            channels: 3,
            background: { r: 236, g: 236, b: 232 },
          },
        })
          .png()
          .toBuffer();
    layers.push({ input: photo, left: box.left, top: box.top });
  }
  if (side.mrz) {
    const block = await mrzBlock(spec.mrzLines, side.mrz.pitch, side.mrz.lineGap);
    const png = spec.mrzBlurSigma > 0 ? await sharp(block.png).blur(spec.mrzBlurSigma).png().toBuffer() : block.png;
    layers.push({ input: png, left: side.mrz.left, top: side.mrz.top });
  }
  return sharp(side.svg).composite(layers).png().toBuffer();
}

const MARGIN = 40;

export async function renderDocument(spec: RenderSpec): Promise<Buffer> {
  const drawn = await Promise.all(spec.sides.map((side) => drawSide(side, spec)));
  const width = Math.max(...spec.sides.map((s) => s.width)) + 2 * MARGIN;
  const height = spec.sides.reduce((h, s) => h + s.height + MARGIN, MARGIN);
  const grey = spec.capture.surfaceGrey;
  let top = MARGIN;
  const placed = drawn.map((input, i) => {
    const layer = { input, left: MARGIN, top };
    top += spec.sides[i].height + MARGIN;
    return layer;
  });
  const page = await sharp({
    create: { width, height, channels: 3, background: { r: grey, g: grey, b: grey } },
  })
    .composite(placed)
    .png()
    .toBuffer();
  return sharp(page)
    .rotate(spec.capture.rotationDegrees, { background: { r: grey, g: grey, b: grey } })
    .modulate({ brightness: spec.capture.brightness })
    .jpeg({ quality: spec.capture.jpegQuality })
    .toBuffer();
}
