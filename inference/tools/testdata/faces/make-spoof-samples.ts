import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { loadPortrait } from './augment-face';
import { faceSources } from './face-sources';
import { simulateDrawing, simulateGlare, simulatePaperTexture, simulateTiltedPrint } from './simulate-recapture';

/** One line of antispoof/labels.jsonl; `image` is relative to that file. See README.md. */
export interface SpoofSample {
  image: string;
  live: boolean;
  kind: string;
}

/**
 * What can be labelled honestly here: camera photos of people (bona fide), one real non-live face
 * (the Mona Lisa, a painting) and re-capture *simulations* (halftone print, screen sub-pixels and
 * moire; a tilted print, glare, paper texture and a pencil drawing in simulate-recapture.ts)
 * computed from the bona fide photos. No real print or screen attack can be captured on this
 * machine, so the simulations are named as such and reported separately by the evaluation.
 */
export async function makeSpoofSamples(assetsDir: string, outDir: string): Promise<SpoofSample[]> {
  const dir = path.join(outDir, 'antispoof');
  await mkdir(dir, { recursive: true });
  const samples: SpoofSample[] = [];
  for (const source of faceSources) {
    const portrait = await loadPortrait(assetsDir, source);
    const isPainting = source.identity === 'mona-lisa';
    const name = `${source.identity}__${isPainting ? 'painting' : 'camera-photo'}.jpg`;
    await sharp(portrait).jpeg({ quality: 92 }).toFile(path.join(dir, name));
    samples.push({ image: name, live: !isPainting, kind: isPainting ? 'painting' : 'camera-photo' });
    if (isPainting) continue;
    const print = `${source.identity}__synthetic-print-halftone.jpg`;
    await writeFile(path.join(dir, print), await simulatePrint(portrait));
    samples.push({ image: print, live: false, kind: 'synthetic-print-halftone' });
    const screen = `${source.identity}__synthetic-screen-moire.jpg`;
    await writeFile(path.join(dir, screen), await simulateScreen(portrait));
    samples.push({ image: screen, live: false, kind: 'synthetic-screen-moire' });
    const more: Array<[string, () => Promise<Buffer>]> = [
      ['synthetic-print-tilted', () => simulateTiltedPrint(portrait)],
      ['synthetic-print-glare', () => simulateGlare(portrait)],
      ['synthetic-print-paper-texture', () => simulatePaperTexture(portrait, source.identity)],
      ['synthetic-drawing', () => simulateDrawing(portrait)],
    ];
    for (const [kind, make] of more) {
      const file = `${source.identity}__${kind}.jpg`;
      await writeFile(path.join(dir, file), await make());
      samples.push({ image: file, live: false, kind });
    }
  }
  await writeFile(path.join(dir, 'labels.jsonl'), samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  return samples;
}

async function rawOf(image: Buffer) {
  return sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

/** Ordered-dither halftone per channel at a slight angle, then paper tint and a little blur. */
async function simulatePrint(portrait: Buffer): Promise<Buffer> {
  const { data, info } = await rawOf(portrait);
  const out = Buffer.alloc(data.length);
  const period = Math.max(3, Math.round(info.width / 120));
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      for (let c = 0; c < 3; c++) {
        const angle = (15 + 30 * c) * (Math.PI / 180);
        const u = (x * Math.cos(angle) + y * Math.sin(angle)) / period;
        const v = (-x * Math.sin(angle) + y * Math.cos(angle)) / period;
        const screen = (Math.cos(2 * Math.PI * u) * Math.cos(2 * Math.PI * v) + 1) / 2;
        const i = (y * info.width + x) * 3 + c;
        const paper = [246, 240, 226][c];
        out[i] = data[i] / 255 > screen ? paper : Math.round(paper * 0.18);
      }
    }
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } })
    .blur(0.9)
    .modulate({ saturation: 0.85 })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** RGB sub-pixel stripes, a beat (moire) pattern and a glare gradient, as a phone camera sees a screen. */
async function simulateScreen(portrait: Buffer): Promise<Buffer> {
  const { data, info } = await rawOf(portrait);
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const moire = 0.82 + 0.18 * Math.sin((x * 0.93 + y * 0.31) * 0.9);
      const glare =
        1 + 0.35 * Math.max(0, 1 - Math.hypot(x - info.width * 0.75, y - info.height * 0.2) / (info.width * 0.45));
      for (let c = 0; c < 3; c++) {
        const stripe = x % 3 === c ? 1 : 0.55;
        const i = (y * info.width + x) * 3 + c;
        out[i] = Math.min(255, Math.round(data[i] * stripe * moire * glare + 12));
      }
    }
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}
