/** Plain RGB pixel buffers and the few operations the presentation-attack simulations share. */
import sharp, { type Sharp } from 'sharp';

export interface Raw {
  data: Float32Array;
  width: number;
  height: number;
}

export async function decodeRaw(image: Buffer | string): Promise<Raw> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: Float32Array.from(data), width: info.width, height: info.height };
}

export function blank(width: number, height: number, fill: (x: number, y: number, c: number) => number = () => 0): Raw {
  const data = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = fill(x, y, c);
  return { data, width, height };
}

export function toBytes(raw: Raw): Buffer {
  const out = Buffer.alloc(raw.data.length);
  for (let i = 0; i < raw.data.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(raw.data[i])));
  return out;
}

export const sharpOf = (raw: Raw) =>
  sharp(toBytes(raw), { raw: { width: raw.width, height: raw.height, channels: 3 } });

/** Runs a sharp pipeline on raw pixels and reads raw pixels back (no PNG round trip: it is slow). */
export async function viaSharp(raw: Raw, pipeline: (image: Sharp) => Sharp): Promise<Raw> {
  const { data, info } = await pipeline(sharpOf(raw)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: Float32Array.from(data), width: info.width, height: info.height };
}

export const resize = (raw: Raw, width: number, height: number) =>
  viaSharp(raw, (i) => i.resize(width, height, { fit: 'fill', kernel: 'lanczos3' }));

export async function blur(raw: Raw, sigma: number): Promise<Raw> {
  return sigma < 0.3 ? raw : viaSharp(raw, (i) => i.blur(sigma));
}

/** Bilinear sample of channel c at (x, y); undefined outside the image. */
export function sample(raw: Raw, x: number, y: number, c: number): number | undefined {
  if (x < 0 || y < 0 || x > raw.width - 1 || y > raw.height - 1) return undefined;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(raw.width - 1, x0 + 1);
  const y1 = Math.min(raw.height - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  const p = (px: number, py: number) => raw.data[(py * raw.width + px) * 3 + c];
  return (p(x0, y0) * (1 - fx) + p(x1, y0) * fx) * (1 - fy) + (p(x0, y1) * (1 - fx) + p(x1, y1) * fx) * fy;
}

/** Maps every pixel: out(x, y, c) = f(in at x, y). */
export function mapPixels(raw: Raw, f: (value: number, x: number, y: number, c: number) => number): Raw {
  const data = new Float32Array(raw.data.length);
  for (let y = 0; y < raw.height; y++)
    for (let x = 0; x < raw.width; x++)
      for (let c = 0; c < 3; c++) {
        const i = (y * raw.width + x) * 3 + c;
        data[i] = f(raw.data[i], x, y, c);
      }
  return { data, width: raw.width, height: raw.height };
}

/** A Gaussian light spot: 1 at (cx, cy), falling off with the given radii, turned by angle radians. */
export function spot(
  x: number,
  y: number,
  s: { cx: number; cy: number; rx: number; ry: number; angle: number },
): number {
  const dx = x - s.cx;
  const dy = y - s.cy;
  const u = (dx * Math.cos(s.angle) + dy * Math.sin(s.angle)) / s.rx;
  const v = (-dx * Math.sin(s.angle) + dy * Math.cos(s.angle)) / s.ry;
  return Math.exp(-(u * u + v * v));
}
