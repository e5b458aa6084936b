/**
 * More presentation-attack *simulations* computed from a bona fide photo, beside the halftone and
 * screen ones in make-spoof-samples.ts: a print held at an angle on a desk (perspective, paper
 * border, background), a glossy print under a lamp (specular glare, lifted blacks), a print's paper
 * texture (narrow gamut, warm tint, fibre noise) and a pencil drawing made from the photo. They are
 * what this machine can make honestly: no camera, no printer, so none is a real capture.
 */
import sharp from 'sharp';
import { seededRandom, seedOf } from '../../../../scripts/test-support/seeded-random';

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

async function rawOf(image: Buffer): Promise<Raw> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const jpeg = (raw: Raw, quality: number) =>
  sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();

/** The print, with a white paper margin, seen obliquely on a grey desk: a homography from the output to the paper. */
export async function simulateTiltedPrint(portrait: Buffer): Promise<Buffer> {
  const photo = await rawOf(portrait);
  const margin = Math.round(photo.width * 0.08);
  const paper = { width: photo.width + 2 * margin, height: photo.height + 2 * margin };
  const { width, height } = photo;
  // Paper corners in the output: top edge further away (narrower), turned a few degrees.
  const corners: Array<[number, number]> = [
    [width * 0.2, height * 0.04],
    [width * 0.86, height * 0.1],
    [width * 0.97, height * 0.97],
    [width * 0.04, height * 0.93],
  ];
  const h = homography(corners, [
    [0, 0],
    [paper.width, 0],
    [paper.width, paper.height],
    [0, paper.height],
  ]);
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = h[6] * x + h[7] * y + 1;
      const px = (h[0] * x + h[1] * y + h[2]) / w;
      const py = (h[3] * x + h[4] * y + h[5]) / w;
      const at = (y * width + x) * 3;
      const inPaper = px >= 0 && py >= 0 && px < paper.width && py < paper.height;
      const sx = Math.round(px - margin);
      const sy = Math.round(py - margin);
      const inPhoto = sx >= 0 && sy >= 0 && sx < width && sy < height;
      for (let c = 0; c < 3; c++) {
        const desk = [96, 92, 88][c] + (y / height) * 30;
        const shade = 0.86 + 0.14 * (y / height); // the far edge catches less light
        out[at + c] = !inPaper
          ? desk
          : inPhoto
            ? Math.round(photo.data[(sy * width + sx) * 3 + c] * 0.9 * shade + 12)
            : Math.round([244, 241, 232][c] * shade);
      }
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .blur(0.7)
    .jpeg({ quality: 84 })
    .toBuffer();
}

/** A glossy print under a lamp: a bright specular band across the face and lifted blacks. */
export async function simulateGlare(portrait: Buffer): Promise<Buffer> {
  const photo = await rawOf(portrait);
  const { width, height } = photo;
  const out = Buffer.alloc(photo.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // An elongated highlight along a diagonal, brightest in its middle.
      const along = (x / width - 0.35) * 0.8 + (y / height - 0.3) * 0.6;
      const across = (x / width - 0.35) * 0.6 - (y / height - 0.3) * 0.8;
      const glare = Math.exp(-(across * across) / 0.006 - (along * along) / 0.12);
      for (let c = 0; c < 3; c++) {
        const i = (y * width + x) * 3 + c;
        const printed = photo.data[i] * 0.82 + 28;
        out[i] = Math.min(255, Math.round(printed * (1 - 0.85 * glare) + 255 * 0.85 * glare));
      }
    }
  }
  return jpeg({ data: out, width, height }, 86);
}

/** Ink on paper: a narrow gamut, a warm paper tint and fibre noise (seeded by the photo's size). */
export async function simulatePaperTexture(portrait: Buffer, name: string): Promise<Buffer> {
  const photo = await rawOf(portrait);
  const { width, height } = photo;
  const random = seededRandom(seedOf(`paper:${name}`));
  const fibre = Float32Array.from({ length: width * height }, () => random() - 0.5);
  const out = Buffer.alloc(photo.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      // Fibres run mostly along x: smear the noise along the row.
      const grain = (fibre[p] + (x > 0 ? fibre[p - 1] : 0) + (x > 1 ? fibre[p - 2] : 0)) * 14;
      for (let c = 0; c < 3; c++) {
        const i = p * 3 + c;
        const ink = 30 + (photo.data[i] / 255) * 200;
        out[i] = Math.max(0, Math.min(255, Math.round(ink * [1.0, 0.97, 0.9][c] + grain)));
      }
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 82 })
    .toBuffer();
}

/** A pencil drawing of the photo: colour-dodge of the grey image with its blurred negative. */
export async function simulateDrawing(portrait: Buffer): Promise<Buffer> {
  const grey = await sharp(portrait).removeAlpha().greyscale().raw().toBuffer({ resolveWithObject: true });
  const blurredNegative = await sharp(grey.data, {
    raw: { width: grey.info.width, height: grey.info.height, channels: 1 },
  })
    .negate()
    .blur(Math.max(2, grey.info.width / 60))
    .raw()
    .toBuffer();
  const out = Buffer.alloc(grey.data.length * 3);
  for (let p = 0; p < grey.data.length; p++) {
    const dodge = Math.min(255, (grey.data[p] * 255) / (256 - blurredNegative[p]));
    for (let c = 0; c < 3; c++) out[p * 3 + c] = Math.round(dodge * [0.98, 0.97, 0.93][c]);
  }
  return sharp(out, { raw: { width: grey.info.width, height: grey.info.height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The 3×3 projective map (h[8] = 1) taking each `from` point to its `to` point. */
function homography(from: Array<[number, number]>, to: Array<[number, number]>): number[] {
  const rows: number[][] = [];
  from.forEach(([x, y], i) => {
    const [u, v] = to[i];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  });
  // Gauss-Jordan elimination with partial pivoting on the 8×9 augmented matrix.
  for (let col = 0; col < 8; col++) {
    const pivot = rows
      .slice(col)
      .reduce((best, r, k) => (Math.abs(r[col]) > Math.abs(rows[best][col]) ? col + k : best), col);
    [rows[col], rows[pivot]] = [rows[pivot], rows[col]];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = rows[r][col] / rows[col][col];
      for (let k = col; k < 9; k++) rows[r][k] -= f * rows[col][k];
    }
  }
  return rows.map((r, i) => r[8] / r[i]);
}
