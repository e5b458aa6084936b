interface Row {
  n: number;
  matches_at_line_float32: number;
  ms_per_query: { worker_index: number; float32_flat: number; int8_flat: number };
  int8_recall_at_line: number;
  int8_false_matches: number | null;
  bytes_per_million: { float32_flat: number; int8_flat: number; worker_index_measured: number };
  hnsw:
    | { skipped: string }
    | { build_s: number; ms_per_query: number; recall_at_line: number; m: number; ef_search: number; k: number };
}

interface Result {
  measured_at: string;
  machine: { cpus: number; cpu: string; node: string; loadavg: number[] };
  model: { version: number; dim: number; line: number; line_source: string };
  runs: number;
  queries_per_run: number;
  planted_pairs: number;
  hnsw_library: string;
  rows: unknown[];
}

const ms = (v: number) => v.toFixed(v < 10 ? 2 : 1);
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

/** benchmarks/results/known-face.md from the run's JSON. */
export function renderKnownFaceMarkdown(result: Result): string {
  const rows = result.rows as Row[];
  const lines = [
    '# known_face 1:N search',
    '',
    `Measured ${result.measured_at} with \`npm run bench:known-face\` on ${result.machine.cpus} × ${result.machine.cpu}, ` +
      `Node ${result.machine.node}, load average ${result.machine.loadavg.map((l) => l.toFixed(1)).join(' / ')} (a shared machine: ratios hold better than absolute figures).`,
    '',
    `Synthetic unit vectors of ${result.model.dim} components (face-embedding v${result.model.version}), line ${result.model.line} ` +
      `(Euclidean, from ${result.model.line_source}). Median ms per query over ${result.runs} runs of ${result.queries_per_run} probes. ` +
      `Recall at the line: ${result.planted_pairs} planted pairs at distances from 0.35 to 0.70, float32's verdict on each as the truth; int8 false matches: whole-gallery scans of every probe, up to 100,000 faces.`,
    '',
    '| N | worker index (ms) | float32 flat (ms) | int8 flat (ms) | int8 recall at line | int8 false matches | HNSW build (s) | HNSW query (ms) | HNSW recall at line |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const h = r.hnsw;
      const hnsw =
        'skipped' in h
          ? ['—', '—', h.skipped]
          : [h.build_s.toFixed(1), ms(h.ms_per_query), h.recall_at_line.toFixed(3)];
      return `| ${r.n.toLocaleString('en')} | ${ms(r.ms_per_query.worker_index)} | ${ms(r.ms_per_query.float32_flat)} | ${ms(r.ms_per_query.int8_flat)} | ${r.int8_recall_at_line.toFixed(3)} (${r.matches_at_line_float32} matches) | ${r.int8_false_matches ?? 'not scanned'} | ${hnsw.join(' | ')} |`;
    }),
    '',
    'Memory per million faces:',
    '',
    ...rows
      .slice(-1)
      .flatMap((r) => [
        `- float32 flat: ${mb(r.bytes_per_million.float32_flat)}; int8 flat: ${mb(r.bytes_per_million.int8_flat)} (computed, descriptors only);`,
        `- the worker's index (one Float32Array per face, measured at N = ${r.n.toLocaleString('en')}, heap + array buffers, with each face's object, session id and identity key): ${mb(r.bytes_per_million.worker_index_measured)}.`,
      ]),
    '',
    `HNSW: ${result.hnsw_library}.`,
    '',
  ];
  return lines.join('\n');
}
