import sharp from 'sharp';

/** A 64-bit perceptual hash as 16 hex digits, so it crosses the port as a plain string. */
export type PerceptualHash = string;

const SIDE = 32;
const LOW = 8;

// cos((2x + 1) u π / 2N) for the low frequencies only: the 8×8 corner is all the hash reads.
const COS: Float64Array[] = Array.from({ length: LOW }, (_, u) =>
  Float64Array.from({ length: SIDE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIDE))),
);

async function grey(bytes: Buffer, width: number, height: number): Promise<Uint8Array> {
  // failOn none: a capture already passed the upload's probe; a truncated tail still hashes.
  const { data } = await sharp(bytes, { failOn: 'none' })
    .greyscale()
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data.buffer, data.byteOffset, width * height);
}

function toHex(bits: boolean[]): PerceptualHash {
  let hex = '';
  for (let i = 0; i < bits.length; i += 4) {
    hex += ((+bits[i] << 3) | (+bits[i + 1] << 2) | (+bits[i + 2] << 1) | +bits[i + 3]).toString(16);
  }
  return hex;
}

/**
 * pHash: the signs, against their median, of the 8×8 lowest frequencies of the 2-D DCT of a 32×32
 * grey downscale. Low frequencies survive re-encoding, resizing and small crops; a brightness change
 * moves only the DC term, which the median comparison tolerates.
 */
export async function dctHash(bytes: Buffer): Promise<PerceptualHash> {
  const px = await grey(bytes, SIDE, SIDE);
  const rows = new Float64Array(SIDE * LOW); // rows[y][u]: each row transformed along x
  for (let y = 0; y < SIDE; y++) {
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let x = 0; x < SIDE; x++) sum += px[y * SIDE + x] * COS[u][x];
      rows[y * LOW + u] = sum;
    }
  }
  const coefficients: number[] = [];
  for (let v = 0; v < LOW; v++) {
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let y = 0; y < SIDE; y++) sum += rows[y * LOW + u] * COS[v][y];
      coefficients.push(sum);
    }
  }
  const sorted = [...coefficients].sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  return toHex(coefficients.map((c) => c > median));
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, i) => {
  let n = 0;
  for (let b = i; b; b >>= 1) n += b & 1;
  return n;
});

/** How many of the two hashes' bits differ. */
export function hammingDistance(a: PerceptualHash, b: PerceptualHash): number {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  let distance = 0;
  for (let i = 0; i < x.length; i++) distance += POPCOUNT[x[i] ^ y[i]];
  return distance;
}
