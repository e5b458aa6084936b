/** Writes a decision run's decision.{json,md,svg}. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderSvg } from './decision-chart';
import { renderMarkdown, type DecisionReport } from './decision-markdown';

/** The JSON only for a run just measured; `--render` draws the Markdown and the SVG again from one. */
export function writeResults(
  report: DecisionReport,
  out: string,
  withJson: boolean,
  log: (line: string) => void,
): void {
  mkdirSync(out, { recursive: true });
  if (withJson) writeFileSync(path.join(out, 'decision.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(out, 'decision.md'), renderMarkdown(report));
  const m = report.machine;
  writeFileSync(
    path.join(out, 'decision.svg'),
    renderSvg(
      report.summary,
      `${report.command} — ${report.generated_at} — ${m.cpus} CPUs, load avg ${m.load_avg_start[0]} → ${m.load_avg_end[0]} (shared machine)`,
    ),
  );
  log(`wrote ${path.relative(process.cwd(), path.join(out, `decision.{${withJson ? 'json,' : ''}md,svg}`))}`);
}
