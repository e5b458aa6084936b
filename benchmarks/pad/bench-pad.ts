/**
 * `npm run bench:pad [-- --runs N]`: time of presentation-attack detection on this machine, in
 * process on the real models (CPU): per face for MiniFASNet V2 alone, V1SE alone and both (crop
 * and inference, one face a call), and per check (decode, face detection, crops and both models)
 * on the selfie alone and on the selfie with a 17-frame liveness sequence (5 frames scored), with
 * the legacy check beside it. Each figure at 1 and 2 ORT intra-op threads. Prints medians and p90;
 * writes benchmarks/results/pad.json and pad.md.
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  faceTestdataDir,
  generateFaceTestdata,
  livenessTestdataDir,
  repoRoot,
} from '../../inference/tools/testdata/faces/generate-face-testdata';
import { createInProcessModelRunner } from '../../inference/src/runtime/in-process-model-runner';
import type { ModelRunner } from '../../inference/src/runtime/model-runner';
import { packCrops, preprocessingOf } from '../../inference/src/images/image-to-tensor';
import { padCrop } from '../../inference/src/tasks/antispoof/pad-crop';
import { decodeRgbImage } from '../../inference/src/images/decode-image';
import { checkAntispoof } from '../../inference/src/tasks/antispoof/check-antispoof';
import { checkLegacyAntispoof } from '../../inference/src/tasks/antispoof/legacy-antispoof';
import { findFaceBoxes } from '../../inference/src/tasks/antispoof/find-face-box';
import { padScores } from '../../inference/src/tasks/antispoof/pad-ensemble';
import { percentile } from '../../scripts/test-support/percentiles';

const models = [
  'face-detection',
  'face-landmarks',
  'pad-minifasnet-v2',
  'pad-minifasnet-v1se',
  'antispoof',
  'passive-liveness',
];

async function measure(runs: number, work: () => Promise<unknown>): Promise<{ median_ms: number; p90_ms: number }> {
  for (let i = 0; i < 3; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await work();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { median_ms: percentile(times, 50) ?? Number.NaN, p90_ms: percentile(times, 90) ?? Number.NaN };
}

async function main() {
  const runsFlag = process.argv.indexOf('--runs');
  const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 50;
  await generateFaceTestdata();
  const selfieBytes = new Uint8Array(await readFile(path.join(faceTestdataDir, 'bearded-man__original.jpg')));
  const sequence = JSON.parse(
    (await readFile(path.join(livenessTestdataDir, 'sequences.jsonl'), 'utf8')).split('\n')[0],
  ) as { frames: string[] };
  const frames = await Promise.all(
    sequence.frames.map(async (f) => new Uint8Array(await readFile(path.join(livenessTestdataDir, f)))),
  );
  const selfie = await decodeRgbImage(selfieBytes);
  const rows: Array<{ threads: number; what: string; median_ms: number; p90_ms: number }> = [];
  for (const threads of [1, 2]) {
    const runner = await createInProcessModelRunner({
      repository: path.join(repoRoot, 'models'),
      models,
      intraOpThreads: threads,
    });
    try {
      const [box] = await findFaceBoxes(runner, [selfie]);
      if (!box) throw new Error('no face in the benchmark selfie');
      const face = [{ image: selfie, box }];
      const cases: Array<[string, () => Promise<unknown>]> = [
        ['one face, V2 only (crop + inference)', () => singleModel(runner, 'pad-minifasnet-v2', face)],
        ['one face, V1SE only (crop + inference)', () => singleModel(runner, 'pad-minifasnet-v1se', face)],
        ['one face, both models (crop + inference)', () => padScores(runner, face)],
        ['check, selfie only', () => checkAntispoof(runner, { selfie: selfieBytes })],
        [
          `check, selfie + ${frames.length}-frame sequence (5 scored)`,
          () => checkAntispoof(runner, { selfie: selfieBytes, frames }),
        ],
        [
          'legacy check (antispoof + passive-liveness), selfie only',
          () => checkLegacyAntispoof(runner, { selfie: selfieBytes }),
        ],
      ];
      for (const [what, work] of cases) {
        const figures = await measure(runs, work);
        rows.push({ threads, what, ...figures });
        console.log(
          `${threads} thread(s)  ${what.padEnd(58)} median ${figures.median_ms.toFixed(2).padStart(7)} ms   p90 ${figures.p90_ms.toFixed(2).padStart(7)} ms`,
        );
      }
    } finally {
      await runner.close();
    }
  }
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join('/')}, node ${process.version}`;
  const out = path.join(repoRoot, 'benchmarks/results');
  await writeFile(path.join(out, 'pad.json'), JSON.stringify({ runs, machine, rows }, null, 1) + '\n');
  const table = rows
    .map((r) => `| ${r.threads} | ${r.what} | ${r.median_ms.toFixed(2)} | ${r.p90_ms.toFixed(2)} |`)
    .join('\n');
  await writeFile(
    path.join(out, 'pad.md'),
    `# bench:pad\n\n${runs} runs after 3 warm-up runs, in process, CPU; ${machine}.\n\n| ORT threads | what | median ms | p90 ms |\n| --- | --- | --- | --- |\n${table}\n`,
  );
}

/** One member alone: the same crop and inference padScores runs for each model. */
async function singleModel(runner: ModelRunner, model: string, faces: Parameters<typeof padScores>[1]) {
  const config = runner.config(model);
  const pre = preprocessingOf(config);
  const crops = faces.map(({ image, box }) => padCrop(image, box, pre.crop_scale ?? 1, pre.width).crop);
  return runner.infer(model, packCrops(config, crops));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
