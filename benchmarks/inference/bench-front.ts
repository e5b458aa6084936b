/**
 * `npm run bench:front`: the inference front's own CPU, change by change, side by side in one run
 * (each round runs every variant back to back, so a burst of other load hits all of them):
 *  - decode: a 12 MP camera-like JPEG at full size against the face uploads' shrink-on-load
 *    (`FACE_UPLOAD_MAX_SIDE`), and a bench:decision selfie both ways (it is under the cap, so the
 *    two must cost the same);
 *  - crops: one verification's face crops cut and packed with a fresh buffer per crop (the sampler's
 *    buffer never handed back, as before the pool) against packCrops handing it back to the pool,
 *    with the share of the wall time spent in garbage collection (perf_hooks' GC observer);
 *  - proof: the separate proof that an upload decodes (a header probe and a 1/8-scale decode), which
 *    VerificationService ran for every face upload of every call before the proof became the check's
 *    own memoised decode (about 32 proofs per verification: 11 frames at the gate, 11 frames and the
 *    selfie again with the selfie, the selfie and 5 frames to antispoof, 2 to face match, 1 document).
 * Reports the median over rounds of each variant's CPU ms per operation and the ratio.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import sharp from 'sharp';
import { boxToSize, sample } from '../../inference/src/images/affine-sampler';
import { assertDecodable } from '../../inference/src/images/assert-decodable';
import { decodeRgbImage } from '../../inference/src/images/decode-image';
import { normalise, packCrops } from '../../inference/src/images/image-to-tensor';
import type { RgbImage } from '../../inference/src/images/rgb-image';
import type { ModelConfig, Preprocessing } from '../../inference/src/repository/model-config';
import { FACE_UPLOAD_MAX_SIDE } from '../../inference/src/tasks/remembered-work';
import { median } from '../../scripts/test-support/percentiles';

const ROOT = path.resolve(__dirname, '../..');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 7);

/** The face crops of one verification: 11 liveness frames and a selfie, each detected and meshed; 3 embedded; 6 PAD crops per member. */
const CROPS_PER_VERIFICATION: Array<{ size: number; count: number }> = [
  { size: 256, count: 12 },
  { size: 192, count: 12 },
  { size: 150, count: 3 },
  { size: 80, count: 12 },
  { size: 128, count: 6 },
];

const pre = (size: number): Preprocessing => ({
  width: size,
  height: size,
  color: 'RGB',
  scale: 1 / 255,
  mean: [0, 0, 0],
  std: [1, 1, 1],
  layout: 'NHWC',
});
const configOf = (size: number) =>
  ({
    name: `crop-${size}`,
    inputs: [{ name: 'x', layout: 'NHWC' }],
    preprocessing: pre(size),
  }) as unknown as ModelConfig;

function cropsOnce(image: RgbImage, pooled: boolean): number {
  let sum = 0;
  for (const { size, count } of CROPS_PER_VERIFICATION)
    for (let i = 0; i < count; i++) {
      const box = boxToSize({ x: 100 + i, y: 120, width: 300, height: 300 }, size, size);
      const crop = sample(image, box, size, size);
      const tensor = pooled ? Object.values(packCrops(configOf(size), [crop]))[0] : normalise([crop], pre(size));
      sum += (tensor.data as Float32Array)[7];
    }
  return sum;
}

/** A camera-sized JPEG with sensor-like noise, so the entropy decoder has a photo's work to do. */
async function cameraJpeg(face: Buffer): Promise<Buffer> {
  const width = 4032;
  const height = 3024;
  const base = await sharp(face).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  let seed = 7;
  for (let i = 0; i < base.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    base[i] = Math.min(255, Math.max(0, base[i] + ((seed >>> 24) % 13) - 6));
  }
  return sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function timed(label: string, runs: number, op: () => unknown, into: Map<string, number[]>) {
  await op();
  const start = process.cpuUsage();
  for (let i = 0; i < runs; i++) await op();
  const list = into.get(label) ?? into.set(label, []).get(label)!;
  list.push(cpuMs(start) / runs);
}

async function main() {
  const selfie = readFileSync(path.join(ROOT, '.state/testdata/faces/astronaut__augmented-1.jpg'));
  const camera = await cameraJpeg(selfie);
  const image = await decodeRgbImage(selfie);
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpu = new Map<string, number[]>();
  const gcShare = new Map<string, number[]>();
  const load = [loadavg()[0]];
  for (let r = 0; r < rounds; r++) {
    await timed('decode 12 MP, full size', 3, () => decodeRgbImage(camera), cpu);
    await timed(
      `decode 12 MP, max side ${FACE_UPLOAD_MAX_SIDE}`,
      3,
      () => decodeRgbImage(camera, { maxSide: FACE_UPLOAD_MAX_SIDE }),
      cpu,
    );
    await timed('decode 12 MP, max side 1600', 3, () => decodeRgbImage(camera, { maxSide: 1600 }), cpu);
    await timed('decode selfie 586x617, full size', 20, () => decodeRgbImage(selfie), cpu);
    await timed(
      `decode selfie 586x617, max side ${FACE_UPLOAD_MAX_SIDE}`,
      20,
      () => decodeRgbImage(selfie, { maxSide: FACE_UPLOAD_MAX_SIDE }),
      cpu,
    );
    await timed(
      'prove a selfie decodable (probe + 1/8-scale decode)',
      20,
      () => assertDecodable(selfie, 'selfie'),
      cpu,
    );
    for (const pooled of r % 2 ? [true, false] : [false, true]) {
      const label = pooled ? "one verification's crops, pooled" : "one verification's crops, a fresh buffer each";
      const wallStart = performance.now();
      for (const entry of observer.takeRecords()) gcMs += entry.duration;
      const gcStart = gcMs;
      await timed(label, 20, () => cropsOnce(image, pooled), cpu);
      for (const entry of observer.takeRecords()) gcMs += entry.duration;
      const list = gcShare.get(label) ?? gcShare.set(label, []).get(label)!;
      list.push((gcMs - gcStart) / (performance.now() - wallStart));
    }
    load.push(loadavg()[0]);
  }
  observer.disconnect();
  const med = (v: number[]) => median(v) ?? NaN;
  console.log(
    `# bench:front, ${rounds} rounds, ${new Date().toISOString()}, load average ${load.map((l) => l.toFixed(2)).join(' / ')}\n`,
  );
  console.log('| operation | CPU ms per op (median of rounds) | per-round CPU ms | GC share of wall time |');
  console.log('| --- | --- | --- | --- |');
  for (const [label, values] of cpu) {
    const gc = gcShare.get(label);
    console.log(
      `| ${label} | ${med(values).toFixed(2)} | ${values.map((v) => v.toFixed(1)).join(' ')} | ${gc ? `${(100 * med(gc)).toFixed(1)} %` : '—'} |`,
    );
  }
  const ratio = (a: string, b: string) => (med(cpu.get(a)!) / med(cpu.get(b)!)).toFixed(2);
  console.log(
    `\ndecode 12 MP: shrink-on-load / full = ${ratio(`decode 12 MP, max side ${FACE_UPLOAD_MAX_SIDE}`, 'decode 12 MP, full size')}`,
  );
  console.log(
    `crops: pooled / fresh = ${ratio("one verification's crops, pooled", "one verification's crops, a fresh buffer each")}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
