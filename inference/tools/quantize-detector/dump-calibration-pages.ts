/**
 * `npx tsx inference/tools/quantize-detector/dump-calibration-pages.ts [--documents N] [--seed S] [--out DIR]`:
 * the calibration set of the int8 text detector. Reads N seeded-picked labelled synthetic documents
 * as the service does and writes every text-detection input it runs (the whole page scaled to the
 * config's long side, padded, normalised: the tensor the served model sees) as raw float32 with its
 * dims in index.json, for quantize_detector.py.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import type { ModelRunner } from '../../src/runtime/model-runner';
import { textDetectionModel, textRecognitionModel, verifyDocument } from '../../src/tasks';
import type { DocumentLabels } from '../testdata/documents/document-labels';
import { pickDocuments } from './pick-documents';

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
  const testdata = path.join(root, '.state/testdata/documents');
  const labels = JSON.parse(await readFile(path.join(testdata, 'labels.json'), 'utf8')) as DocumentLabels;
  const picked = pickDocuments(
    labels.documents.map((d) => d.file),
    count,
    seed,
  );
  const runner = await createInProcessModelRunner({
    repository: path.join(root, 'models'),
    models: [textDetectionModel, textRecognitionModel, 'face-detection', 'mrz-cells'],
    intraOpThreads: 1,
  });
  await mkdir(out, { recursive: true });
  const index: Array<{ file: string; document: string; dims: number[] }> = [];
  let current = '';
  const recording: ModelRunner = {
    config: (name) => runner.config(name),
    infer: async (name, inputs, options) => {
      if (name === textDetectionModel) {
        const tensor = Object.values(inputs)[0];
        const file = `${String(index.length).padStart(4, '0')}.f32`;
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
  console.log(`${index.length} detection inputs from ${picked.length} documents in ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
