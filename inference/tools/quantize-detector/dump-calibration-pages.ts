/**
 * `npx tsx inference/tools/quantize-detector/dump-calibration-pages.ts [--documents N] [--seed S] [--out DIR]`:
 * the calibration set of the int8 text detector. Reads N seeded-picked labelled synthetic documents
 * as the service does and writes every text-detection input it runs (the whole page scaled to the
 * config's long side, padded, normalised: the tensor the served model sees) as raw float32 with its
 * dims in index.json, for quantize_detector.py.
 */
import path from 'node:path';
import { textDetectionModel, textRecognitionModel } from '../../src/tasks';
import { recordModelInputs } from './record-model-inputs';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  const count = Number(arg('documents', '24'));
  // 35, not the recogniser's 34: a second, independent pick.
  const seed = Number(arg('seed', '35'));
  const out = path.resolve(arg('out', path.join(root, '.state/bench/detection-calibration')));
  const written = await recordModelInputs({
    root,
    recorded: textDetectionModel,
    models: [textDetectionModel, textRecognitionModel, 'face-detection', 'mrz-cells'],
    count,
    seed,
    out,
  });
  console.log(`${written.inputs} detection inputs from ${written.documents} documents in ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
