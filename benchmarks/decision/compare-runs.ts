/**
 * `npm run bench:decision -- --compare BEFORE.json AFTER.json [--out DIR]`: two decision runs side
 * by side, as decision-compare.{md,svg}: the targets, latency by step, CPU per verification by
 * process and by model. It measures nothing itself; each run's own Markdown says how it was taken.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { median, type LatencySummary } from '../../scripts/test-support/percentiles';
import type { DecisionReport } from './decision-markdown';
import { PROCESSES, type Summary } from './decision-summary';

const ms = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : `${Math.round(v)}`;
const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The steps an applicant waits for, with the p99 target where the benchmark has one. */
const steps = (s: Summary): Array<{ label: string; l: LatencySummary | undefined; target?: number }> => [
  { label: 'document read at upload', l: s.document_read, target: 1500 },
  { label: 'liveness upload', l: s.liveness_upload },
  { label: 'selfie upload', l: s.selfie_upload },
  { label: 'selfie sent → decided', l: s.selfie_to_decided_at_server, target: 2000 },
  { label: 'submit → decided', l: s.submit_to_decided_at_server, target: 1000 },
];

/** Per model, the median over passes of one ModelRuns field. */
function perModel(r: DecisionReport, field: 'cpu_ms' | 'run_ms' | 'rows' | 'cached_rows'): Map<string, number> {
  const models = new Set(r.passes.flatMap((p) => Object.keys(p.model_runs_per_verification ?? {})));
  const out = new Map<string, number>();
  for (const m of models) {
    const v = median(
      r.passes.flatMap((p) =>
        p.model_runs_per_verification?.[m]?.[field] !== undefined ? [p.model_runs_per_verification[m][field]] : [],
      ),
    );
    if (v !== null) out.set(m, v);
  }
  return out;
}

export function renderCompareMarkdown(before: DecisionReport, after: DecisionReport, files: [string, string]): string {
  const [b, a] = [before.summary, after.summary];
  const target = (r: DecisionReport, figure: string) => r.targets.find((t) => t.figure.startsWith(figure));
  const figures = [...new Set([...before.targets, ...after.targets].map((t) => t.figure))];
  const rowsB = perModel(before, 'rows');
  const rowsA = perModel(after, 'rows');
  const cachedB = perModel(before, 'cached_rows');
  const cachedA = perModel(after, 'cached_rows');
  const cpuA = perModel(after, 'cpu_ms');
  return [
    '# bench:decision, before and after',
    '',
    `Before: \`${files[0]}\` (${before.generated_at}, \`${before.command}\`, load ${before.machine.load_avg_start[0]} → ${before.machine.load_avg_end[0]}).`,
    `After: \`${files[1]}\` (${after.generated_at}, \`${after.command}\`, load ${after.machine.load_avg_start[0]} → ${after.machine.load_avg_end[0]}).`,
    '',
    '## Targets',
    '| figure | before | after | target | met after |',
    '|---|---|---|---|---|',
    ...figures.map((f) => {
      const [tb, ta] = [target(before, f), target(after, f)];
      return `| ${f} | ${ms(tb?.measured)} | ${ms(ta?.measured)} | ${ta?.target ?? tb?.target ?? '—'} | ${ta ? (ta.met ? 'yes' : 'no') : '—'} |`;
    }),
    '',
    '## Latency by step (ms, p50 / p99, all passes pooled)',
    '| step | before | after |',
    '|---|---|---|',
    ...steps(b).map((s, i) => {
      const after = steps(a)[i].l;
      return `| ${s.label} | ${ms(s.l?.p50_ms)} / ${ms(s.l?.p99_ms)} | ${ms(after?.p50_ms)} / ${ms(after?.p99_ms)} |`;
    }),
    '',
    '## CPU per verification by process (ms, less polls, median of passes)',
    `| | ${PROCESSES.join(' | ')} | total |`,
    `|---|${PROCESSES.map(() => '---').join('|')}|---|`,
    `| before | ${PROCESSES.map((p) => ms(b.cpu_ms_per_verification_without_polls[p])).join(' | ')} | ${ms(b.cpu_ms_per_verification_without_polls.total)} |`,
    `| after | ${PROCESSES.map((p) => ms(a.cpu_ms_per_verification_without_polls[p])).join(' | ')} | ${ms(a.cpu_ms_per_verification_without_polls.total)} |`,
    '',
    `Inference after: executor ${ms(a.inference_executor_cpu_ms_per_verification)} ms, front ${ms((a.cpu_ms_per_verification.inference ?? 0) - (a.inference_executor_cpu_ms_per_verification ?? NaN))} ms.`,
    '',
    '## Model rows per verification, and the executor CPU they took after',
    'Rows run by the model; in brackets, rows cut from the pixels again and answered by the row cache instead.',
    '',
    '| model | rows before | rows after | executor CPU ms after |',
    '|---|---|---|---|',
    ...[...new Set([...rowsB.keys(), ...rowsA.keys()])]
      .sort((x, y) => (cpuA.get(y) ?? 0) - (cpuA.get(x) ?? 0))
      .map(
        (m) =>
          `| ${m} | ${rowsB.get(m) ?? '—'} (+${cachedB.get(m) ?? 0}) | ${rowsA.get(m) ?? '—'} (+${cachedA.get(m) ?? 0}) | ${ms(cpuA.get(m))} |`,
      ),
    '',
  ].join('\n');
}

/** Paired bars per step: before (grey) and after (blue), p99 light and p50 dark; red marks a target. */
export function renderCompareSvg(before: Summary, after: Summary): string {
  const W = 760;
  const left = 190;
  const right = 60;
  const top = 50;
  const rowH = 48;
  const rows = steps(before).map((s, i) => ({ ...s, after: steps(after)[i].l }));
  const H = top + rows.length * rowH + 50;
  const max = Math.max(2000, ...rows.flatMap((r) => [r.l?.p99_ms ?? 0, r.after?.p99_ms ?? 0])) * 1.05;
  const x = (v: number) => left + (v / max) * (W - left - right);
  const parts = [
    `<text x="${W / 2}" y="22" text-anchor="middle" font-weight="bold">Latency by step, before (grey) and after (blue): p99 light, p50 dark, ms</text>`,
  ];
  for (let t = 0; t <= max; t += 1000)
    parts.push(
      `<line x1="${x(t)}" x2="${x(t)}" y1="${top - 8}" y2="${top + rows.length * rowH}" stroke="#e5e5e5"/><text x="${x(t)}" y="${top + rows.length * rowH + 16}" text-anchor="middle">${t}</text>`,
    );
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    parts.push(`<text x="${left - 8}" y="${y + 24}" text-anchor="end">${esc(r.label)}</text>`);
    const bar = (l: LatencySummary | undefined, dy: number, light: string, dark: string) => {
      if (!l || l.p99_ms === null || l.p50_ms === null) return;
      parts.push(
        `<rect x="${left}" y="${y + dy}" width="${(x(l.p99_ms) - left).toFixed(1)}" height="16" fill="${light}"/>`,
        `<rect x="${left}" y="${y + dy + 4}" width="${(x(l.p50_ms) - left).toFixed(1)}" height="8" fill="${dark}"/>`,
        `<text x="${x(l.p99_ms) + 4}" y="${y + dy + 13}" fill="#555">${Math.round(l.p99_ms)}</text>`,
      );
    };
    bar(r.l, 4, '#d9d9d9', '#737373');
    bar(r.after, 24, '#9ecae1', '#08519c');
    if (r.target)
      parts.push(
        `<line x1="${x(r.target)}" x2="${x(r.target)}" y1="${y}" y2="${y + 44}" stroke="#d62728" stroke-width="2"/>`,
      );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="white"/>${parts.join('')}</svg>\n`;
}

export function writeComparison(beforeFile: string, afterFile: string, out: string, log: (line: string) => void): void {
  const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as DecisionReport;
  const [before, after] = [read(beforeFile), read(afterFile)];
  mkdirSync(out, { recursive: true });
  const names: [string, string] = [path.relative(out, beforeFile), path.relative(out, afterFile)];
  writeFileSync(path.join(out, 'decision-compare.md'), renderCompareMarkdown(before, after, names));
  writeFileSync(path.join(out, 'decision-compare.svg'), renderCompareSvg(before.summary, after.summary));
  log(`wrote ${path.relative(process.cwd(), path.join(out, 'decision-compare.{md,svg}'))}`);
}
