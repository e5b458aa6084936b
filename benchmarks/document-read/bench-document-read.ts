/**
 * `npm run bench:document-read [-- --every K] [--limit N] [--trees name=DIR,...] [--versions MODEL=N,M,...]
 * [--tree-models] [--results DIR]`: the document
 * evaluation (every labelled synthetic document: every MRZ field, every verdict, portrait, address)
 * and, per document, the model CPU of text detection and text recognition, in-process on the real
 * models with one ORT thread (as an executor on this 2-core machine runs).
 *
 * Model calls are run one at a time, so the process CPU used from a call's start to its end
 * (`process.cpuUsage`, every thread) is that call's; the JavaScript between calls (crops, decoding)
 * is not counted. With `--trees base=DIR,...` (copies of other commits' `inference/src`, e.g.
 * `git archive <commit> inference/src | tar -x -C DIR`, with a node_modules link) each document is
 * read by every tree, in rotating order, so load drifts reach all alike and the ratios come from
 * one run; answers that differ from the first tree's are listed. `--versions text-recognition=2,3`
 * does the same with this tree's code over versions of one model (each served from a repository
 * beside models/ that pins it), the first version being the reference.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { createInProcessModelRunner } from '../../inference/src/runtime/in-process-model-runner';
import type { DocumentCheck, DocumentCheckOutput } from '../../inference/src/tasks';
import { declaredTypeOf, type DocumentLabels } from '../../inference/tools/testdata/documents/document-labels';
import {
  describeDocumentSummary,
  scoreDocument,
  summariseDocuments,
  type DocumentResult,
} from '../../inference/tools/eval/tasks/document-scoring';
import { versionRepository } from '../../inference/tools/version-repository';
import { percentile } from '../../scripts/test-support/percentiles';
import { documentReadMarkdown } from './document-read-markdown';
import { meteredRunner, type ModelCall } from './metered-runner';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const root = path.resolve(__dirname, '../..');
const MODELS = ['text-detection', 'text-recognition', 'face-detection', 'mrz-cells'];

export interface DocumentCost {
  file: string;
  detection_cpu_ms: number;
  recognition_cpu_ms: number;
  /** The OCR-B cell classifier's (models/mrz-cells), where the tree reads by cells first. */
  cells_cpu_ms: number;
  cells_calls: number;
  detection_calls: number;
  recognition_calls: number;
  /** Lines recognised: the sum of the recognition calls' batch sizes. */
  recognition_rows: number;
  /** Sum over recognition calls of batch x input width: the pixel columns the recogniser ran over. */
  recognition_columns: number;
  wall_ms: number;
}

export interface TreeRun {
  tree: string;
  costs: DocumentCost[];
  results: DocumentResult[];
  answers: Record<string, string>;
}

function cost(file: string, calls: ModelCall[], wall: number): DocumentCost {
  const of = (model: string): ModelCall[] => calls.filter((c) => c.model === model);
  const cpu = (model: string): number => of(model).reduce((s, c) => s + c.cpuMs, 0);
  return {
    file,
    detection_cpu_ms: cpu('text-detection'),
    recognition_cpu_ms: cpu('text-recognition'),
    cells_cpu_ms: cpu('mrz-cells'),
    cells_calls: of('mrz-cells').length,
    detection_calls: of('text-detection').length,
    recognition_calls: of('text-recognition').length,
    recognition_rows: of('text-recognition').reduce((s, c) => s + c.batch, 0),
    recognition_columns: of('text-recognition').reduce((s, c) => s + c.batch * c.width, 0),
    wall_ms: wall,
  };
}

/** Everything scored about one answer, so two trees' answers can be compared exactly. */
const answerOf = (out: DocumentCheckOutput): string =>
  JSON.stringify({ reason: out.reason, mrz: out.mrz, person: out.person, portrait: out.portrait_box !== null });

export function costSummary(costs: DocumentCost[]): Record<string, number | null> {
  const p = (key: keyof Omit<DocumentCost, 'file'>, q: number): number | null => {
    const v = percentile(
      costs.map((c) => c[key]),
      q,
    );
    return v === null ? null : Math.round(v * 10) / 10;
  };
  const mean = (
    key: 'recognition_calls' | 'recognition_rows' | 'detection_cpu_ms' | 'detection_calls',
  ): number | null =>
    costs.length ? Math.round((100 * costs.reduce((s, c) => s + c[key], 0)) / costs.length) / 100 : null;
  return {
    detection_cpu_ms_mean: mean('detection_cpu_ms'),
    detection_cpu_ms_p50: p('detection_cpu_ms', 50),
    detection_cpu_ms_p99: p('detection_cpu_ms', 99),
    recognition_cpu_ms_p50: p('recognition_cpu_ms', 50),
    recognition_cpu_ms_p99: p('recognition_cpu_ms', 99),
    cells_cpu_ms_p50: p('cells_cpu_ms', 50),
    cells_cpu_ms_p99: p('cells_cpu_ms', 99),
    // With the band finder a document detected once took the cheap path; twice, the full page too.
    detection_calls_mean: mean('detection_calls'),
    detected_once: costs.filter((c) => c.detection_calls === 1).length,
    recognised_share: costs.length
      ? Math.round((100 * costs.filter((c) => c.recognition_calls > 0).length) / costs.length) / 100
      : null,
    recognition_calls_p50: p('recognition_calls', 50),
    recognition_calls_mean: mean('recognition_calls'),
    recognition_rows_p50: p('recognition_rows', 50),
    recognition_rows_mean: mean('recognition_rows'),
    recognition_columns_p50: p('recognition_columns', 50),
    wall_ms_p50: p('wall_ms', 50),
    wall_ms_p99: p('wall_ms', 99),
  };
}

async function loadCheck(tree: string): Promise<DocumentCheck> {
  const tasks = (await import(path.join(tree, 'inference/src/tasks/index.ts'))) as { verifyDocument: DocumentCheck };
  return tasks.verifyDocument;
}

async function main(): Promise<void> {
  const limit = Number(arg('limit') ?? Infinity);
  // --trees name=DIR,...: other source trees read beside this one, the first being the reference.
  const others = (arg('trees') ?? '')
    .split(',')
    .filter(Boolean)
    .map((t) => {
      const [name, dir] = t.split('=');
      return { name, dir: path.resolve(dir) };
    });
  const resultsDir = arg('results');
  // --held-out: the clean documents drawn apart from the 180 (generate-documents.ts --held-out).
  const testdata = path.join(
    root,
    process.argv.includes('--held-out') ? '.state/testdata/documents-heldout' : '.state/testdata/documents',
  );
  const labels = JSON.parse(await readFile(path.join(testdata, 'labels.json'), 'utf8')) as DocumentLabels;
  // --every k keeps every k-th document: a quick sample that still spans every variant and format.
  const every = Number(arg('every') ?? 1);
  // --part i/n keeps the i-th of every n of those: n processes, each reading its part, share out a
  // loaded machine's cores; --merge then joins their reports into one.
  const [part, parts] = (arg('part') ?? '0/1').split('/').map(Number);
  const documents = labels.documents
    .filter((_, i) => i % every === 0)
    .filter((_, k) => k % parts === part)
    .slice(0, limit);
  const now = new Date(`${labels.reference_date}T12:00:00Z`);
  const runnerOn = (repository: string) =>
    createInProcessModelRunner({ repository, models: MODELS, intraOpThreads: 1 });
  const runner = await runnerOn(path.join(root, 'models'));
  // --versions MODEL=N,M: this tree's code over each version of one model.
  const [versioned, versionList] = (arg('versions') ?? '=').split('=');
  const versions = versionList.split(',').filter(Boolean).map(Number);
  const trees = versions.length
    ? await Promise.all(
        versions.map(async (v) => ({
          name: `${versioned} v${v}`,
          dir: root,
          runner: await runnerOn(versionRepository(path.join(root, 'models'), versioned, v)),
        })),
      )
    : await Promise.all(
        [...others, { name: 'this tree', dir: root }].map(async (t) => ({
          ...t,
          // --tree-models: each tree served by its own models/ (a config change, a threshold), not this one's.
          runner:
            process.argv.includes('--tree-models') && t.dir !== root
              ? await runnerOn(path.join(t.dir, 'models'))
              : runner,
        })),
      );
  const checks = await Promise.all(trees.map((t) => loadCheck(t.dir)));
  const runs: TreeRun[] = trees.map((t) => ({ tree: t.name, costs: [], results: [], answers: {} }));
  const load = [loadavg()[0]];
  // One warm-up read per tree: first runs of each input shape allocate.
  for (const [t, check] of checks.entries())
    await check(trees[t].runner, { image: await readFile(path.join(testdata, documents[0].file)), now });
  for (const [n, label] of documents.entries()) {
    const image = await readFile(path.join(testdata, label.file));
    // Rotating order, so load drifts reach every tree alike.
    const order = [...runs.keys()].map((k) => (k + n) % runs.length);
    for (const t of order) {
      const calls: ModelCall[] = [];
      const started = performance.now();
      const out = await checks[t](meteredRunner(trees[t].runner, calls), {
        image,
        now,
        declaredType: declaredTypeOf(label),
      });
      const wall = performance.now() - started;
      runs[t].costs.push(cost(label.file, calls, wall));
      runs[t].results.push(scoreDocument(label, out, wall));
      runs[t].answers[label.file] = answerOf(out);
    }
    if (n % 20 === 19) {
      load.push(loadavg()[0]);
      process.stderr.write(`[bench:document-read] ${n + 1}/${documents.length} load ${loadavg()[0].toFixed(1)}\n`);
    }
  }
  load.push(loadavg()[0]);
  for (const r of new Set([runner, ...trees.map((t) => t.runner)])) await r.close();
  await report(
    runs,
    documents.map((d) => d.file),
    load,
    resultsDir,
  );
}

/** Writes the report of every tree's reads of `files` (and prints its summary). */
async function report(runs: TreeRun[], files: string[], load: number[], resultsDir: string | undefined): Promise<void> {
  const differing = Object.fromEntries(
    runs.slice(1).map((r) => [r.tree, files.filter((f) => runs[0].answers[f] !== r.answers[f])]),
  );
  const written = {
    date: new Date().toISOString(),
    args: process.argv.slice(2),
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    load_average_1m: load.map((l) => Number(l.toFixed(1))),
    documents: files.length,
    ort_intra_op_threads: 1,
    /** Per tree, the documents it answered otherwise than the first tree. */
    answers_differing_from_first_tree: differing,
    trees: runs.map((r) => ({
      tree: r.tree,
      cost: costSummary(r.costs),
      evaluation: summariseDocuments(r.results),
      per_document: r.costs.map((c, i) => ({
        ...c,
        reason: r.results[i].reason,
        answer: r.answers[c.file],
        result: r.results[i],
      })),
    })),
  };
  for (const r of runs) {
    console.log(`\n== ${r.tree}`);
    console.log(describeDocumentSummary(summariseDocuments(r.results)).join('\n'));
    console.log(JSON.stringify(costSummary(r.costs)));
  }
  if (runs.length > 1) console.log(`\nanswers differing from ${runs[0].tree}: ${JSON.stringify(differing)}`);
  const outDir = resultsDir ?? path.join(root, '.state/bench');
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'document-read.json'), `${JSON.stringify(written, null, 1)}\n`);
  if (resultsDir) await writeFile(path.join(outDir, 'document-read.md'), documentReadMarkdown(written));
}

interface PartReport {
  load_average_1m: number[];
  trees: Array<{ tree: string; per_document: Array<DocumentCost & { answer: string; result: DocumentResult }> }>;
}

/** --merge a.json,b.json,...: the reports of the parts of one run (--part), joined into one. */
async function merge(list: string): Promise<void> {
  const parts = await Promise.all(
    list.split(',').map(async (f) => JSON.parse(await readFile(f, 'utf8')) as PartReport),
  );
  const runs: TreeRun[] = parts[0].trees.map((t, k) => {
    const rows = parts.flatMap((p) => p.trees[k].per_document);
    return {
      tree: t.tree,
      costs: rows.map((r) => ({
        file: r.file,
        detection_cpu_ms: r.detection_cpu_ms,
        recognition_cpu_ms: r.recognition_cpu_ms,
        cells_cpu_ms: r.cells_cpu_ms ?? 0,
        cells_calls: r.cells_calls ?? 0,
        detection_calls: r.detection_calls,
        recognition_calls: r.recognition_calls,
        recognition_rows: r.recognition_rows,
        recognition_columns: r.recognition_columns,
        wall_ms: r.wall_ms,
      })),
      results: rows.map((r) => r.result),
      answers: Object.fromEntries(rows.map((r) => [r.file, r.answer])),
    };
  });
  await report(
    runs,
    runs[0].costs.map((c) => c.file),
    parts.flatMap((p) => p.load_average_1m),
    arg('results'),
  );
}

const merging = arg('merge');
(merging ? merge(merging) : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
