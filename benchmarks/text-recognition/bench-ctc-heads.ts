/**
 * `npx tsx benchmarks/text-recognition/bench-ctc-heads.ts [--documents N] [--rounds R]`: text
 * recognition with the full softmax (version 1) against the decoding heads in the graph
 * (version 2), side by side on the same line boxes of the synthetic documents, in-process on CPU.
 * Per line: time of the model run plus decoding (each batch's time shared by its lines); per
 * batch: bytes of the outputs copied back to the host. Rounds alternate v1 and v2 so load drifts
 * reach both alike. Also checks that both read every line identically (text, score, MRZ readings).
 */
import { readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { decodeRgbImage } from '../../inference/src/images/decode-image';
import {
  createInProcessModelRunner,
  type InProcessModelRunner,
} from '../../inference/src/runtime/in-process-model-runner';
import type { ModelRunner } from '../../inference/src/runtime/model-runner';
import { detectText, recognizeLines, textRecognitionModel, type RecognizedLine } from '../../inference/src/tasks';
import { versionRepository } from '../../inference/tools/version-repository';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

/** Counts the bytes and time of every recognition call the task makes. */
function metered(runner: ModelRunner, batches: Array<{ lines: number; bytes: number; ms: number }>): ModelRunner {
  return {
    config: (name) => runner.config(name),
    infer: async (name, inputs, options) => {
      const started = performance.now();
      const out = await runner.infer(name, inputs, options);
      if (name === textRecognitionModel) {
        const lines = Object.values(inputs)[0].dims[0];
        batches.push({
          lines,
          bytes: Object.values(out).reduce((sum, t) => sum + t.data.byteLength, 0),
          ms: performance.now() - started,
        });
      }
      return out;
    },
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};

async function main(): Promise<void> {
  const documents = arg('documents', 12);
  const rounds = arg('rounds', 3);
  const root = path.resolve(__dirname, '../..');
  const testdata = path.join(root, '.state/testdata/documents');
  const labels = JSON.parse(await readFile(path.join(testdata, 'labels.json'), 'utf8')) as {
    documents: Array<{ file: string }>;
  };
  const runners: Record<'v1' | 'v2', InProcessModelRunner> = {
    v1: await createInProcessModelRunner({
      repository: versionRepository(path.join(root, 'models'), textRecognitionModel, 1),
      models: ['text-detection', textRecognitionModel],
    }),
    v2: await createInProcessModelRunner({
      repository: versionRepository(path.join(root, 'models'), textRecognitionModel, 2),
      models: [textRecognitionModel],
    }),
  };
  const load = [loadavg()[0]];
  const pages = [];
  for (const label of labels.documents.slice(0, documents)) {
    const image = await decodeRgbImage(await readFile(path.join(testdata, label.file)));
    pages.push({ image, boxes: await detectText(runners.v1, image) });
  }
  const batches: Record<'v1' | 'v2', Array<{ lines: number; bytes: number; ms: number }>> = {
    v1: [],
    v2: [],
  };
  const perLine: Record<'v1' | 'v2', number[]> = { v1: [], v2: [] };
  let lines = 0;
  let differing = 0;
  for (let round = 0; round < rounds; round++) {
    for (const page of pages) {
      const read: Partial<Record<'v1' | 'v2', RecognizedLine[]>> = {};
      for (const version of round % 2 ? (['v2', 'v1'] as const) : (['v1', 'v2'] as const)) {
        const seen = batches[version].length;
        const started = performance.now();
        read[version] = await recognizeLines(metered(runners[version], batches[version]), page.image, page.boxes);
        const elapsed = performance.now() - started;
        const made = batches[version].slice(seen).reduce((sum, b) => sum + b.lines, 0);
        if (made > 0) perLine[version].push(elapsed / made);
      }
      if (round === 0) {
        lines += read.v1!.length;
        differing += read.v1!.filter((line, i) => JSON.stringify(line) !== JSON.stringify(read.v2![i])).length;
      }
    }
    load.push(loadavg()[0]);
  }
  for (const runner of Object.values(runners)) await runner.close();
  const row = (version: 'v1' | 'v2') => ({
    ms_per_line_median: Number(median(perLine[version]).toFixed(2)),
    output_bytes_per_batch_median: median(batches[version].map((b) => b.bytes)),
    output_bytes_per_line_median: Math.round(median(batches[version].map((b) => b.bytes / b.lines))),
    batches: batches[version].length,
  });
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        cpus: cpus().length,
        load_average_1m: load.map((l) => Number(l.toFixed(1))),
        documents: pages.length,
        rounds,
        lines_per_round: lines,
        lines_read_differently: differing,
        v1_full_softmax: row('v1'),
        v2_heads_in_graph: row('v2'),
      },
      null,
      1,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
