/**
 * `npx tsx inference/tools/quantize-recogniser/dump-calibration-lines.ts [--documents N] [--seed S] [--out DIR]`:
 * the calibration set of the int8 recogniser. Picks N of the labelled synthetic documents by a
 * seeded shuffle (the same N for the same seed and labels.json), reads each as the service does,
 * and writes every text-recognition input it runs (MRZ rows, their full-width re-reads, the
 * visual-zone lines: the crops the served model sees, already normalised) as raw float32 with its
 * dims in index.json, for quantize_recogniser.py.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import type { ModelRunner } from '../../src/runtime/model-runner';
import { textRecognitionModel, verifyDocument } from '../../src/tasks';
import type { DocumentLabels } from '../testdata/documents/document-labels';
import { seededRandom } from '../../../scripts/test-support/seeded-random';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  const count = Number(arg('documents', '24'));
  const seed = Number(arg('seed', '34'));
  const out = path.resolve(arg('out', path.join(root, '.state/bench/recognition-calibration')));
  const testdata = path.join(root, '.state/testdata/documents');
  const labels = JSON.parse(await readFile(path.join(testdata, 'labels.json'), 'utf8')) as DocumentLabels;
  const random = seededRandom(seed);
  const order = labels.documents.map((d) => d.file).sort();
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const picked = order.slice(0, count).sort();
  const runner = await createInProcessModelRunner({
    repository: path.join(root, 'models'),
    models: ['text-detection', textRecognitionModel, 'face-detection'],
    intraOpThreads: 1,
  });
  await mkdir(out, { recursive: true });
  const index: Array<{ file: string; document: string; dims: number[] }> = [];
  let current = '';
  const recording: ModelRunner = {
    config: (name) => runner.config(name),
    infer: async (name, inputs, options) => {
      if (name === textRecognitionModel) {
        const tensor = Object.values(inputs)[0];
        const file = `${String(index.length).padStart(4, '0')}.f32`;
        // Listed before the write: the document's crops go to the recogniser concurrently.
        index.push({ file, document: current, dims: [...tensor.dims] });
        const data = (tensor.data as Float32Array).slice();
        await writeFile(path.join(out, file), new Uint8Array(data.buffer));
      }
      return runner.infer(name, inputs, options);
    },
  };
  const now = new Date(`${labels.reference_date}T12:00:00Z`);
  for (const document of picked) {
    current = document;
    await verifyDocument(recording, { image: await readFile(path.join(testdata, document)), now });
  }
  await runner.close();
  await writeFile(
    path.join(out, 'index.json'),
    `${JSON.stringify({ seed, documents: picked, inputs: index }, null, 1)}\n`,
  );
  console.log(`${index.length} recognition inputs from ${picked.length} documents in ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
