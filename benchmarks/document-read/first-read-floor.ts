/**
 * `npx tsx benchmarks/document-read/first-read-floor.ts [--every K] [--out FILE]`: how sure the
 * recogniser is of each MRZ row's first read (the crops of the detected boxes), against whether
 * that read alone, the read across the zone's full width alone, and both merged give the labelled
 * row. For every candidate zone the first pass reads (as read-machine-zone.ts does), per row: the
 * lowest character probability of the first read after repair to length, and whether each reading
 * is exact. This is the evidence for the floor under which a row is read a second time.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInProcessModelRunner } from '../../inference/src/runtime/in-process-model-runner';
import { decodeRgbImage } from '../../inference/src/images/decode-image';
import type { DocumentLabels } from '../../inference/tools/testdata/documents/document-labels';
import { mrzShapedBoxes } from '../../inference/src/tasks/document/read-machine-zone';
import { readMrz, type MrzRead } from '../../inference/src/tasks/document/mrz/read-mrz';
import { findMrzCandidates } from '../../inference/src/tasks/document/ocr/find-mrz-lines';
import { detectText } from '../../inference/src/tasks/document/ocr/text-detection';
import { recognizeLines } from '../../inference/src/tasks/document/ocr/text-recognition';
import { namesAreUnsure } from '../../inference/src/tasks/document/mrz/visual-zone-names';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const root = path.resolve(__dirname, '../..');

interface RowFacts {
  /** The first read's length is the layout's: nothing had to be added or removed. */
  exact_length: boolean;
  /** Lowest character probability of the first read as read. */
  raw_min: number;
  /** Lowest character probability of the first read, repaired to length (a restored filler counts 0.5). */
  min: number;
  /** Where that lowest character is and what was read there, with the runner-up. */
  weakest: string;
  once: boolean;
  full: boolean;
  merged: boolean;
}

interface ZoneFacts {
  format: string;
  rows: RowFacts[];
  once: ReturnType<typeof summary>;
  merged: ReturnType<typeof summary>;
  first_reads: string[];
}

function summary(read: MrzRead | null) {
  return read
    ? {
        checks: read.parsed.fields.check_digits_valid,
        corrections: read.corrected.corrections.length,
        names_unsure: namesAreUnsure(read),
        lines: read.corrected.lines,
      }
    : null;
}

async function main(): Promise<void> {
  const testdata = path.join(root, '.state/testdata/documents');
  const labels = JSON.parse(await readFile(path.join(testdata, 'labels.json'), 'utf8')) as DocumentLabels;
  const every = Number(arg('every') ?? 1);
  const documents = labels.documents.filter((_, i) => i % every === 0);
  const now = new Date(`${labels.reference_date}T12:00:00Z`);
  const runner = await createInProcessModelRunner({
    repository: path.join(root, 'models'),
    models: ['text-detection', 'text-recognition'],
    intraOpThreads: 1,
  });
  const out: Array<{ file: string; variant: string; truth: string[]; zones: ZoneFacts[] }> = [];
  for (const label of documents) {
    const image = await decodeRgbImage(await readFile(path.join(testdata, label.file)), { what: 'document' });
    const boxes = await detectText(runner, image);
    const lines = await recognizeLines(runner, image, mrzShapedBoxes(boxes));
    const zones: ZoneFacts[] = [];
    for (const candidate of findMrzCandidates(lines)) {
      const full = await recognizeLines(
        runner,
        image,
        candidate.rows.map((r) => r.fullBox),
      );
      const once = readMrz(
        candidate.layout,
        candidate.rows.map((r) => [r.reading]),
        now,
      );
      const fullOnly = readMrz(
        candidate.layout,
        full.map((l) => [l.mrz]),
        now,
      );
      const merged = readMrz(
        candidate.layout,
        candidate.rows.map((r, i) => [r.reading, full[i].mrz]),
        now,
      );
      const rows: RowFacts[] = candidate.rows.map((_, i) => {
        const fitted = once?.fitted[i] ?? [];
        let at = 0;
        fitted.forEach((c, k) => {
          if (c.prob < fitted[at].prob) at = k;
        });
        const weak = fitted[at];
        const raw = candidate.rows[i].reading;
        return {
          exact_length: raw.length === candidate.layout.lineLength,
          raw_min: Math.round(Math.min(...raw.map((c) => c.prob)) * 1e4) / 1e4,
          min: fitted.length ? Math.round(weak.prob * 1e4) / 1e4 : 0,
          weakest: weak
            ? `${at}:${weak.char}(${weak.prob.toFixed(3)})${weak.alternative ? `/${weak.alternative.char}(${weak.alternative.prob.toFixed(3)})` : ''}`
            : '',
          once: once?.corrected.lines[i] === label.mrz_lines[i],
          full: fullOnly?.corrected.lines[i] === label.mrz_lines[i],
          merged: merged?.corrected.lines[i] === label.mrz_lines[i],
        };
      });
      zones.push({
        format: candidate.layout.format,
        rows,
        once: summary(once),
        merged: summary(merged),
        first_reads: candidate.rows.map((r) => r.reading.map((c) => `${c.char}${c.prob.toFixed(2)}`).join(' ')),
      });
      if (merged?.parsed.fields.check_digits_valid) break;
    }
    out.push({ file: label.file, variant: label.variant, truth: label.mrz_lines, zones });
    process.stderr.write('.');
  }
  await runner.close();
  const file = arg('out') ?? path.join(root, '.state/bench/first-read-floor.json');
  await writeFile(file, `${JSON.stringify(out, null, 1)}\n`);
  console.log(`\n${documents.length} documents -> ${file}`);
  // Rows of zones whose first read settles them (every check digit holds, nothing corrected, names sure).
  const settled = out.flatMap((d) =>
    d.zones
      .filter((z) => z.once && z.once.checks && z.once.corrections === 0 && !z.once.names_unsure)
      .flatMap((z) => z.rows.map((r) => ({ file: d.file, ...r }))),
  );
  const wrong = settled.filter((r) => !r.once);
  console.log(`rows in settled zones: ${settled.length}, first read wrong: ${wrong.length}`);
  for (const r of wrong) console.log(`  ${r.file}: exact length ${r.exact_length}, weakest ${r.weakest}`);
  const exact = settled.filter((r) => r.exact_length);
  for (const floor of [0, 0.5, 0.6, 0.7, 0.8, 0.9]) {
    const kept = exact.filter((r) => r.raw_min >= floor);
    console.log(
      `floor ${floor}: ${kept.length} rows kept as first read, ${kept.filter((r) => !r.once).length} of them wrong`,
    );
  }
  const tenths = new Array<number>(10).fill(0);
  for (const r of exact.filter((x) => x.once)) tenths[Math.min(9, Math.floor(10 * r.raw_min))]++;
  console.log(`weakest character of right exact-length first reads, by tenth: ${tenths.join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
