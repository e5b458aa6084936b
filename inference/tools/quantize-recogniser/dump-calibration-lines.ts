/**
 * `npx tsx inference/tools/quantize-recogniser/dump-calibration-lines.ts [--documents N] [--seed S] [--out DIR]`:
 * the calibration set of the int8 recogniser. Picks N of the labelled synthetic documents by a
 * seeded shuffle (the same N for the same seed and labels.json), reads each as the service does,
 * and writes every text-recognition input it runs (MRZ rows, their full-width re-reads, the
 * visual-zone lines: the crops the served model sees, already normalised) as raw float32 with its
 * dims in index.json, for quantize_recogniser.py.
 */
import path from 'node:path';
import { textRecognitionModel } from '../../src/tasks';
import { recordModelInputs } from '../quantize-detector/record-model-inputs';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  const count = Number(arg('documents', '24'));
  const seed = Number(arg('seed', '34'));
  const out = path.resolve(arg('out', path.join(root, '.state/bench/recognition-calibration')));
  const written = await recordModelInputs({
    root,
    recorded: textRecognitionModel,
    models: ['text-detection', textRecognitionModel, 'face-detection'],
    count,
    seed,
    out,
  });
  console.log(`${written.inputs} recognition inputs from ${written.documents} documents in ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
