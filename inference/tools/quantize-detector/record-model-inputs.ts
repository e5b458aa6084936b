/**
 * A calibration set for static int8 quantisation: reads the picked labelled synthetic documents as
 * the service does (verifyDocument on the served models, one ORT thread) and writes every input
 * that one model is given as raw float32 (`NNNN.f32`), with its dims and document in index.json.
 * Both quantisers' dump scripts use it (the detector's pages, the recogniser's lines).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import type { ModelRunner } from '../../src/runtime/model-runner';
import { verifyDocument } from '../../src/tasks';
import type { DocumentLabels } from '../testdata/documents/document-labels';
import { pickDocuments } from './pick-documents';

export interface RecordingOptions {
  root: string;
  /** The model whose inputs are written. */
  recorded: string;
  /** The models the document check needs loaded. */
  models: string[];
  count: number;
  seed: number;
  out: string;
}

/** Writes the set and answers how many inputs and documents it holds. */
export async function recordModelInputs(options: RecordingOptions): Promise<{ inputs: number; documents: number }> {
  const testdata = path.join(options.root, '.state/testdata/documents');
  const labels = JSON.parse(await readFile(path.join(testdata, 'labels.json'), 'utf8')) as DocumentLabels;
  const picked = pickDocuments(
    labels.documents.map((d) => d.file),
    options.count,
    options.seed,
  );
  const runner = await createInProcessModelRunner({
    repository: path.join(options.root, 'models'),
    models: options.models,
    intraOpThreads: 1,
  });
  await mkdir(options.out, { recursive: true });
  const index: Array<{ file: string; document: string; dims: number[] }> = [];
  let current = '';
  const recording: ModelRunner = {
    config: (name) => runner.config(name),
    infer: async (name, inputs, inferOptions) => {
      if (name === options.recorded) {
        const tensor = Object.values(inputs)[0];
        const file = `${String(index.length).padStart(4, '0')}.f32`;
        // Listed before the write: a document's crops may reach the model concurrently.
        index.push({ file, document: current, dims: [...tensor.dims] });
        const data = (tensor.data as Float32Array).slice();
        await writeFile(path.join(options.out, file), new Uint8Array(data.buffer));
      }
      return runner.infer(name, inputs, inferOptions);
    },
  };
  const now = new Date(`${labels.reference_date}T12:00:00Z`);
  for (const document of picked) {
    current = document;
    await verifyDocument(recording, { image: await readFile(path.join(testdata, document)), now });
  }
  await runner.close();
  await writeFile(
    path.join(options.out, 'index.json'),
    `${JSON.stringify({ seed: options.seed, documents: picked, inputs: index }, null, 1)}\n`,
  );
  return { inputs: index.length, documents: picked.length };
}
