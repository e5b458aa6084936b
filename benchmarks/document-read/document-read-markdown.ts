/** The document-read benchmark's report as the Markdown kept in benchmarks/results. */
import type { DocumentSummary } from '../../inference/tools/eval/tasks/document-scoring';

export interface DocumentReadReport {
  date: string;
  /** The arguments the benchmark ran with (absent in reports written before they were kept). */
  args?: string[];
  cpus: number;
  cpu_model?: string;
  load_average_1m: number[];
  documents: number;
  ort_intra_op_threads: number;
  answers_differing_from_first_tree: Record<string, string[]>;
  trees: Array<{ tree: string; cost: Record<string, number | null>; evaluation: DocumentSummary }>;
}

const pct = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(1)} %`);
const num = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : String(x));

export function documentReadMarkdown(r: DocumentReadReport): string {
  const rows = r.trees.map((t) => {
    const e = t.evaluation;
    const c = t.cost;
    const verdicts = Object.entries(e.expectedOutcomeRate)
      .map(([v, rate]) => `${v} ${pct(rate)}`)
      .join(', ');
    return `| ${t.tree} | ${e.clean.allFieldsExact}/${e.clean.count} | ${verdicts} | ${e.portrait.found}/${e.portrait.expected}, ${e.portrait.falseOnNoFace}/${e.portrait.noFace} | ${pct(e.address.line1)} / ${pct(e.address.postal_code)} / ${pct(e.address.city)} | ${num(c.detection_cpu_ms_mean)} / ${num(c.detection_cpu_ms_p50)} / ${num(c.detection_cpu_ms_p99)} | ${num(c.detected_once)} | ${num(c.recognition_cpu_ms_p50)} / ${num(c.recognition_cpu_ms_p99)} | ${num(c.recognition_calls_p50)} / ${num(c.recognition_calls_mean)} | ${num(c.recognition_rows_p50)} / ${num(c.recognition_rows_mean)} | ${num(c.recognition_columns_p50)} | ${num(c.cells_cpu_ms_p50)} / ${num(c.cells_cpu_ms_p99)} | ${pct(c.recognised_share ?? null)} |`;
  });
  return [
    '# Document read: evaluation and model CPU per document',
    '',
    `\`npm run bench:document-read${r.args?.length ? ` -- ${r.args.join(' ')}` : r.trees.length > 1 ? ' -- --trees …' : ''}\`, ${r.date}, ${r.documents} synthetic documents,`,
    `${r.cpus} CPUs (${r.cpu_model ?? 'unknown'}), ORT ${r.ort_intra_op_threads} intra-op thread, in-process, model calls one at a time;`,
    `load average (1 min) during the run: ${Math.min(...r.load_average_1m)}–${Math.max(...r.load_average_1m)}.`,
    r.trees.length > 1
      ? `Every tree read every document, in rotating order. Answers differing from the first tree's: ${Object.entries(
          r.answers_differing_from_first_tree,
        )
          .map(([tree, files]) => `${tree}: ${files.length ? files.join(', ') : 'none'}`)
          .join('; ')}.`
      : '',
    '',
    '| tree | clean, every field exact | verdicts as labelled, by variant | portrait found, invented | address line1 / postal / city | detection CPU ms mean / p50 / p99 | documents detected once | recognition CPU ms p50 / p99 | recognition calls p50 / mean | recognised rows p50 / mean | recognised columns p50 (batch × width) | MRZ cells CPU ms p50 / p99 | documents the recogniser ran on |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
