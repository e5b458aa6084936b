/**
 * What an attacker holds up, as a flat image at its own resolution: a halftone print, a
 * continuous-tone photo print, a screen whose sub-pixels the camera resolves, a high-ppi screen
 * whose grid it does not, a painting and a drawing. `present-surface.ts` then puts it in front of
 * the camera. Every parameter comes from the caller's seeded random and is returned for labels.json.
 */
import sharp from 'sharp';
import { between } from '../../../../scripts/test-support/seeded-random';
import { blank, blur, mapPixels, resize, sample, sharpOf, spot, viaSharp, type Raw } from './raw-image';

type Params = Record<string, number | string>;
export interface Surface {
  surface: Raw;
  params: Params;
}

const pick = <T>(random: () => number, items: T[]): T => items[Math.floor(random() * items.length)];

/** Paper margin around the photo, in paper white. */
function onPaper(photo: Raw, white: number[], marginShare: number): Raw {
  const m = Math.round(photo.height * marginShare);
  return blank(photo.width + 2 * m, photo.height + 2 * m, (x, y, c) => sample(photo, x - m, y - m, c) ?? white[c]);
}

/** An office or photo printer: CMY dot screens at their classic angles, printed at `lpi`, seen at `dotPx` surface pixels a dot. */
export async function halftonePrint(photo: Raw, random: () => number): Promise<Surface> {
  const dotPx = between(random, 2.6, 3.6);
  const scale = 600 / photo.height;
  const big = await resize(photo, Math.round(photo.width * scale), 600);
  const white = [between(random, 238, 250), between(random, 234, 246), between(random, 215, 236)];
  const black = between(random, 30, 60);
  const angles = [15, 75, 0].map((d) => (d * Math.PI) / 180);
  const printed = mapPixels(big, (value, x, y, c) => {
    const u = (x * Math.cos(angles[c]) + y * Math.sin(angles[c])) / dotPx;
    const v = (-x * Math.sin(angles[c]) + y * Math.cos(angles[c])) / dotPx;
    const screen = (Math.cos(2 * Math.PI * u) * Math.cos(2 * Math.PI * v) + 1) / 2;
    return value / 255 > screen ? white[c] : black + (white[c] - black) * 0.12;
  });
  const surface = onPaper(await blur(printed, 0.6), white, between(random, 0.04, 0.1));
  return {
    surface,
    params: {
      print: 'halftone',
      dot_px: +dotPx.toFixed(2),
      paper_white: white.map(Math.round).join(','),
      black: Math.round(black),
    },
  };
}

/** A photo lab print: continuous tone squeezed between paper white and ink black, warm, slightly desaturated, with grain. */
export async function photoPrint(photo: Raw, random: () => number): Promise<Surface> {
  const white = [between(random, 236, 250), between(random, 230, 244), between(random, 212, 232)];
  const black = between(random, 18, 45);
  const gamma = between(random, 0.85, 1.2);
  const saturation = between(random, 0.7, 0.95);
  const big = await resize(photo, Math.round(photo.width * (520 / photo.height)), 520);
  const printed = mapPixels(big, (value, x, y, c) => {
    const i = (y * big.width + x) * 3;
    const grey = (big.data[i] + big.data[i + 1] + big.data[i + 2]) / 3;
    const v = grey + (value - grey) * saturation;
    return black + (white[c] - black) * (Math.max(0, v) / 255) ** gamma + (random() - 0.5) * 6;
  });
  const surface = onPaper(printed, white, between(random, 0.03, 0.08));
  return {
    surface,
    params: {
      print: 'continuous-tone',
      paper_white: white.map(Math.round).join(','),
      black: Math.round(black),
      gamma: +gamma.toFixed(2),
      saturation: +saturation.toFixed(2),
    },
  };
}

interface Device {
  name: string;
  aspect: number;
  bezel: number;
}
const devices: Device[] = [
  { name: 'phone', aspect: 0.48, bezel: 0.03 },
  { name: 'tablet', aspect: 0.75, bezel: 0.05 },
  { name: 'laptop', aspect: 1.6, bezel: 0.035 },
];

/**
 * A screen showing the photo. `resolved`: the camera sees each pixel's R, G and B stripes (a
 * low-ppi or close screen, giving the grid and moiré after the camera's resampling); otherwise the
 * pixels are finer than the camera's and only the screen's white point, gamma, bezel and
 * reflection remain.
 */
export async function screen(photo: Raw, random: () => number, resolved: boolean): Promise<Surface> {
  const device = pick(random, devices);
  const tint = [between(random, 0.86, 0.95), between(random, 0.95, 1.0), between(random, 1.04, 1.12)];
  const gamma = between(random, 0.9, 1.15);
  const pixelPx = resolved ? Math.round(between(random, 3, 5)) : 1;
  const contentHeight = resolved ? Math.round(between(random, 110, 160)) : 520;
  const height = contentHeight * pixelPx;
  const width = Math.round(height * device.aspect);
  // The photo fills the screen's width (phone, tablet) or height (laptop), on a dark UI.
  const fit = Math.min(width / photo.width, height / photo.height) * (device.name === 'laptop' ? 0.9 : 1);
  const shown = await resize(
    photo,
    Math.max(1, Math.round((photo.width * fit) / pixelPx)),
    Math.max(1, Math.round((photo.height * fit) / pixelPx)),
  );
  const ox = (width / pixelPx - shown.width) / 2;
  const oy = (height / pixelPx - shown.height) / 2;
  const reflection = {
    cx: between(random, 0, width),
    cy: between(random, 0, height * 0.5),
    rx: width * between(random, 0.3, 0.8),
    ry: height * between(random, 0.1, 0.3),
    angle: between(random, -0.6, 0.6),
  };
  const reflectionStrength = between(random, 0.05, 0.22);
  const bezel = Math.round(height * device.bezel);
  const surface = blank(width + 2 * bezel, height + 2 * bezel, (x, y, c) => {
    const sx = x - bezel;
    const sy = y - bezel;
    if (sx < 0 || sy < 0 || sx >= width || sy >= height) return 18 + (x === 0 || y === 0 ? 30 : 0);
    const px = Math.floor(sx / pixelPx);
    const py = Math.floor(sy / pixelPx);
    const content = sample(shown, px - ox, py - oy, c) ?? 22;
    let light = 255 * (Math.max(0, content) / 255) ** gamma * tint[c];
    if (resolved) {
      // Each pixel: three vertical stripes R, G, B with a dark gap, and a dark row between pixel rows.
      const sub = Math.floor(((sx % pixelPx) / pixelPx) * 3);
      const rowGap = sy % pixelPx === pixelPx - 1 ? 0.35 : 1;
      light = (sub === c ? light * 2.4 : light * 0.12) * rowGap;
    }
    return light + 255 * reflectionStrength * spot(sx, sy, reflection);
  });
  return {
    surface,
    params: {
      screen: device.name,
      subpixels_resolved: resolved ? 'yes' : 'no',
      pixel_px: pixelPx,
      white_point: tint.map((t) => t.toFixed(2)).join(','),
      gamma: +gamma.toFixed(2),
      reflection: +reflectionStrength.toFixed(2),
    },
  };
}

/** A painting of the photo: median-smoothed, posterized, a saturated palette and canvas weave. */
export async function painting(photo: Raw, random: () => number): Promise<Surface> {
  const levels = Math.round(between(random, 4, 8));
  const smoothing = 2 * Math.round(between(random, 2, 4)) + 1;
  const saturation = between(random, 1.1, 1.5);
  const smooth = await viaSharp(photo, (i) => i.median(smoothing).modulate({ saturation }));
  const step = 255 / (levels - 1);
  const weave = between(random, 3, 6);
  const surface = mapPixels(
    smooth,
    (v, x, y) => Math.round(v / step) * step * 0.9 + 14 + 7 * Math.sin(x / weave) * Math.sin(y / weave),
  );
  return {
    surface: onPaper(await blur(surface, 0.8), [235, 228, 212], 0.03),
    params: { artwork: 'painting', levels, smoothing },
  };
}

/** A pencil drawing: the grey image colour-dodged by its blurred negative, on grainy paper. */
export async function drawing(photo: Raw, random: () => number): Promise<Surface> {
  const grey = await sharpOf(photo).greyscale().raw().toBuffer({ resolveWithObject: true });
  const radius = Math.max(2, (grey.info.width / 60) * between(random, 0.7, 1.5));
  const negative = await sharp(grey.data, {
    raw: { width: grey.info.width, height: grey.info.height, channels: 1 },
  })
    .negate()
    .blur(radius)
    .raw()
    .toBuffer();
  const paper = [between(random, 238, 250), between(random, 234, 246), between(random, 220, 236)];
  const surface = mapPixels(photo, (_, x, y, c) => {
    const p = y * photo.width + x;
    const dodge = Math.min(255, (grey.data[p] * 255) / (256 - negative[p]));
    return (dodge / 255) * paper[c] + (random() - 0.5) * 8;
  });
  return {
    surface: onPaper(surface, paper, 0.05),
    params: { artwork: 'pencil-drawing', blur_radius: +radius.toFixed(1) },
  };
}
