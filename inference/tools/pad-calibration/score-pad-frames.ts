/**
 * `npx tsx inference/tools/pad-calibration/score-pad-frames.ts [labels.json] [out.json]`: every frame
 * of every challenge sequence of a PAD set, scored on its own: the face box, each MiniFASNet
 * member's real probability and their mean, and two colour cues a screen leaves (the blue/red ratio
 * inside the face box, and of the brightest 2 % of the frame: a screen's cold white point). The
 * frame aggregation rules in models/README.md are compared on these scores
 * (`compare-frame-rules.ts`), placed on the calibration set and reported on the main one.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import { decodeRgbImage } from '../../src/images/decode-image';
import type { RgbImage } from '../../src/images/rgb-image';
import { findFaceBoxes, padModels, padScores } from '../../src/tasks';
import type { Box } from '../../src/tasks';

export interface ScoredFrame {
  index: number;
  found: boolean;
  score: number | null;
  members: number[] | null;
  faceBlueRed: number | null;
  brightBlueRed: number;
}

export interface ScoredSequence {
  name: string;
  species: string;
  live: boolean;
  frames: ScoredFrame[];
}

const repoRoot = path.resolve(__dirname, '../../..');

/** Mean blue over mean red inside the box (skin under the display's white point). */
function blueRed(image: RgbImage, box: Box): number {
  let r = 0;
  let b = 0;
  const x0 = Math.max(0, Math.round(box.x));
  const y0 = Math.max(0, Math.round(box.y));
  const x1 = Math.min(image.width, Math.round(box.x + box.width));
  const y1 = Math.min(image.height, Math.round(box.y + box.height));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const at = (y * image.width + x) * 3;
      r += image.data[at];
      b += image.data[at + 2];
    }
  }
  return b / Math.max(1, r);
}

/** Blue over red of the brightest 2 % of the frame (by luma): the white a screen shows is cold. */
function brightBlueRed(image: RgbImage): number {
  const n = image.width * image.height;
  const luma = new Float32Array(n);
  for (let i = 0; i < n; i++)
    luma[i] = 0.299 * image.data[i * 3] + 0.587 * image.data[i * 3 + 1] + 0.114 * image.data[i * 3 + 2];
  const cut = Float32Array.from(luma).sort()[Math.floor(n * 0.98)];
  let r = 0;
  let b = 0;
  for (let i = 0; i < n; i++) {
    if (luma[i] < cut) continue;
    r += image.data[i * 3];
    b += image.data[i * 3 + 2];
  }
  return b / Math.max(1, r);
}

async function main() {
  const file = path.resolve(process.argv[2] ?? path.join(repoRoot, '.state/testdata/pad/labels.json'));
  const out = path.resolve(process.argv[3] ?? path.join(repoRoot, '.state/pad-frames.json'));
  const labels = JSON.parse(await readFile(file, 'utf8')) as {
    sequences: Array<{ name: string; frames: string[]; live: boolean; species: string }>;
  };
  const runner = await createInProcessModelRunner({
    repository: path.join(repoRoot, 'models'),
    models: ['face-detection', ...padModels],
  });
  // Incremental: sequences already in `out` are kept, so a set still being generated can be scored as it grows.
  const sequences: ScoredSequence[] = existsSync(out)
    ? (JSON.parse(await readFile(out, 'utf8')) as { sequences: ScoredSequence[] }).sequences
    : [];
  const done = new Set(sequences.map((s) => s.name));
  for (const [k, sequence] of labels.sequences.entries()) {
    if (done.has(sequence.name)) continue;
    const images = await Promise.all(
      sequence.frames.map(async (f) =>
        decodeRgbImage(new Uint8Array(await readFile(path.join(path.dirname(file), f)))),
      ),
    );
    const boxes = await findFaceBoxes(runner, images);
    const found = images.flatMap((image, i) => (boxes[i] ? [{ image, box: boxes[i], i }] : []));
    const scores = await padScores(runner, found);
    const frames: ScoredFrame[] = images.map((image, index) => {
      const at = found.findIndex((f) => f.i === index);
      const box = boxes[index];
      return {
        index,
        found: at >= 0,
        score: at >= 0 ? scores[at].score : null,
        members: at >= 0 ? scores[at].members : null,
        faceBlueRed: box ? blueRed(image, box) : null,
        brightBlueRed: brightBlueRed(image),
      };
    });
    sequences.push({ name: sequence.name, species: sequence.species, live: sequence.live, frames });
    if (k % 10 === 9) {
      console.log(`${k + 1}/${labels.sequences.length}`);
      await writeFile(out, JSON.stringify({ labels: file, sequences }, null, 1) + '\n');
    }
  }
  await runner.close();
  await writeFile(out, JSON.stringify({ labels: file, sequences }, null, 1) + '\n');
  console.log(`wrote ${out}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
