/**
 * `npm run bench:known-face`: the cost of the known_face 1:N search (docs/known-face.md) over N
 * stored faces (default 10k, 100k, 1M; `--sizes 10000,100000`), synthetic unit vectors of the
 * served face-embedding model's dimension, with planted neighbours around its match line:
 *  - the worker's own search (`searchKnownFaces` over one Float32Array per face, as its index holds them);
 *  - brute force over one flat float32 array, and over the same gallery quantised to int8;
 *  - HNSW (hnswlib-node) when that package can be loaded (it is not a project dependency: a native
 *    build; `HNSWLIB_NODE=/path/to/node_modules/hnswlib-node` points at one built elsewhere).
 * Median ms per query over BENCH_RUNS runs (default 5) of BENCH_QUERIES probes (default 10); memory
 * per million faces; recall of int8 and HNSW against float32 at the line, over 100 planted pairs
 * whose distances are spread around it. Writes benchmarks/results/known-face.{json,md}.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { searchKnownFaces, KnownFace } from '../../api/src/public-entry';
import { median } from '../../scripts/test-support/percentiles';
import { seededRandom } from '../../scripts/test-support/seeded-random';
import { searchFloat32, searchInt8 } from './brute-force';
import { renderKnownFaceMarkdown } from './known-face-report';
import { atDistance, quantise, unitVectors } from './synthetic-gallery';

const ROOT = path.resolve(__dirname, '../..');
const OUT = path.join(ROOT, 'benchmarks/results');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 10);
const PLANTED = 100;
const FULL_SCAN_MAX = 100_000;

interface HnswIndex {
  initIndex(maxElements: number, m?: number, efConstruction?: number, randomSeed?: number): void;
  addPoint(point: number[], label: number): void;
  setEf(ef: number): void;
  searchKnn(query: number[], k: number): { distances: number[]; neighbors: number[] };
}
type HnswModule = { HierarchicalNSW: new (space: string, dim: number) => HnswIndex };

function loadHnsw(): { module: HnswModule | null; why: string } {
  try {
    const require = createRequire(__filename);
    return { module: require(process.env.HNSWLIB_NODE ?? 'hnswlib-node') as HnswModule, why: 'loaded' };
  } catch (error) {
    return { module: null, why: (error as Error).message.split('\n')[0] };
  }
}

/** The served face-embedding model: its descriptor width and match line (models/face-embedding). */
function servedModel(): { version: number; dim: number; line: number; metric: string } {
  const dir = path.join(ROOT, 'models/face-embedding');
  const { serve } = JSON.parse(readFileSync(path.join(dir, 'version-policy.json'), 'utf8')) as { serve: number };
  const config = JSON.parse(readFileSync(path.join(dir, String(serve), 'config.json'), 'utf8')) as {
    outputs: Array<{ dims: number[] }>;
    thresholds: Record<string, number>;
  };
  const euclidean = 'match_distance' in config.thresholds;
  if (!euclidean) throw new Error('this benchmark measures the Euclidean line of the served model');
  return {
    version: serve,
    dim: config.outputs[0].dims[0],
    line: config.thresholds.match_distance,
    metric: 'euclidean_distance',
  };
}

function timed(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Median over runs of each run's median ms per query. */
function msPerQuery(probes: Float32Array[], search: (probe: Float32Array) => unknown): number {
  search(probes[0]); // warm-up: the first calls run before the JIT has compiled the loop
  const perRun: number[] = [];
  for (let run = 0; run < RUNS; run++)
    perRun.push(median(probes.slice(0, QUERIES).map((p) => timed(() => search(p)))) ?? 0);
  return median(perRun) ?? 0;
}

const recall = (found: Set<number>, truth: Set<number>) =>
  truth.size ? [...truth].filter((t) => found.has(t)).length / truth.size : 1;

function main(): void {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '10000,100000,1000000' },
      'hnsw-max': { type: 'string', default: '100000' },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const hnswMax = Number(values['hnsw-max']);
  const model = servedModel();
  const hnsw = loadHnsw();
  const rows = [];
  for (const n of sizes) {
    const random = seededRandom(n);
    const gallery = unitVectors(n, model.dim, n + 1);
    const probes = Array.from({ length: PLANTED }, (_, j) => unitVectors(1, model.dim, 7_000_000 + j));
    // Planted neighbours: one per probe, at distances spread evenly from 0.35 to 0.70 around the line.
    const stride = Math.floor(n / PLANTED);
    probes.forEach((probe, j) => {
      const distance = 0.35 + (0.35 * j) / (PLANTED - 1);
      gallery.set(atDistance(probe, distance, random), j * stride * model.dim);
    });
    const before = process.memoryUsage();
    const faces: KnownFace[] = Array.from({ length: n }, (_, i) => ({
      session_id: `ses_${i}`,
      identity_key: `key_${i}`,
      embedding: gallery.slice(i * model.dim, (i + 1) * model.dim),
    }));
    const after = process.memoryUsage();
    const { codes, scale } = quantise(gallery);
    const rule = { metric: 'euclidean_distance' as const, line: model.line, identityKey: 'probe', sessionId: 'probe' };

    // Recall at the line over the planted pairs (the random background lies near distance sqrt(2),
    // far from any line): float32's verdict on each pair is the truth. Whole-gallery scans for false
    // matches only up to FULL_SCAN_MAX faces, where they are cheap.
    const planted = probes.map((_, j) => j * stride);
    const within = (p: Float32Array, at: number, quantised: boolean) => {
      let sum = 0;
      for (let i = 0; i < model.dim; i++) {
        const v = quantised
          ? codes[at * model.dim + i] - Math.max(-127, Math.min(127, Math.round(p[i] * scale)))
          : gallery[at * model.dim + i] - p[i];
        sum += v * v;
      }
      return quantised ? sum <= (model.line * scale) ** 2 : sum <= model.line ** 2;
    };
    const truth = probes.map((p, j) => (within(p, planted[j], false) ? new Set([planted[j]]) : new Set<number>()));
    const int8Hits = probes.map((p, j) => (within(p, planted[j], true) ? new Set([planted[j]]) : new Set<number>()));
    const truthCount = truth.reduce((s, t) => s + t.size, 0);
    const int8Recall = truth.reduce((s, t, j) => s + recall(int8Hits[j], t) * t.size, 0) / (truthCount || 1);
    const int8Extra =
      n <= FULL_SCAN_MAX
        ? probes.reduce((s, p) => {
            const exact = new Set(searchFloat32(gallery, model.dim, p, model.line));
            return s + searchInt8(codes, scale, model.dim, p, model.line).filter((x) => !exact.has(x)).length;
          }, 0)
        : null;

    const row: Record<string, unknown> = {
      n,
      matches_at_line_float32: truthCount,
      ms_per_query: {
        worker_index: msPerQuery(probes, (p) => searchKnownFaces(p, faces, rule)),
        float32_flat: msPerQuery(probes, (p) => searchFloat32(gallery, model.dim, p, model.line)),
        int8_flat: msPerQuery(probes, (p) => searchInt8(codes, scale, model.dim, p, model.line)),
      },
      int8_recall_at_line: int8Recall,
      int8_false_matches: int8Extra,
      bytes_per_million: {
        float32_flat: 1e6 * model.dim * 4,
        int8_flat: 1e6 * model.dim,
        worker_index_measured: Math.round(
          ((after.arrayBuffers - before.arrayBuffers + after.heapUsed - before.heapUsed) / n) * 1e6,
        ),
      },
    };
    if (hnsw.module && n <= hnswMax) {
      const index = new hnsw.module.HierarchicalNSW('l2', model.dim);
      index.initIndex(n, 16, 200, 100);
      const build = timed(() => {
        for (let i = 0; i < n; i++) index.addPoint(Array.from(gallery.subarray(i * model.dim, (i + 1) * model.dim)), i);
      });
      index.setEf(64);
      const k = 10;
      const knn = (p: Float32Array) => {
        const { distances, neighbors } = index.searchKnn(Array.from(p), k);
        // 'l2' answers squared distances.
        return new Set(neighbors.filter((_, i) => distances[i] <= model.line ** 2));
      };
      const hnswHits = probes.map(knn);
      row.hnsw = {
        m: 16,
        ef_construction: 200,
        ef_search: 64,
        k,
        build_s: build / 1000,
        ms_per_query: msPerQuery(probes, knn),
        recall_at_line: truth.reduce((s, t, j) => s + recall(hnswHits[j], t) * t.size, 0) / (truthCount || 1),
      };
    } else {
      row.hnsw = { skipped: hnsw.module ? `N above --hnsw-max ${hnswMax} (build time)` : `not loadable: ${hnsw.why}` };
    }
    rows.push(row);
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  const result = {
    benchmark: 'known-face',
    measured_at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', node: process.version, loadavg: os.loadavg() },
    model: {
      name: 'face-embedding',
      ...model,
      line_source: `models/face-embedding/${model.version}/config.json thresholds.match_distance`,
    },
    runs: RUNS,
    queries_per_run: QUERIES,
    planted_pairs: PLANTED,
    hnsw_library: hnsw.module ? 'hnswlib-node (loaded)' : `hnswlib-node not loaded: ${hnsw.why}`,
    rows,
  };
  writeFileSync(path.join(OUT, 'known-face.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(OUT, 'known-face.md'), renderKnownFaceMarkdown(result));
}

try {
  main();
} catch (error) {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
