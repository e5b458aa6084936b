/**
 * A second witness for the document number. Its MRZ check digit is one decimal digit of evidence,
 * too little to choose among misreads (O/0, U/J, 8/3) on its own; but ICAO documents also print the
 * number in the visual zone, in an ordinary typeface the reader handles better. When the MRZ's
 * check digits fail, a visual-zone line close to the MRZ's reading of the number (edit distance at
 * most MAX_DISTANCE) stands in for it, the MRZ characters kept as runners-up, and correction runs
 * again. It is adopted only if every check digit then passes and no other line gives a different
 * answer.
 */
import { diff } from './correct-mrz';
import type { MrzLayout } from './mrz-layouts';
import { lineText, type LineReading } from './mrz-reading';
import { judge, type MrzRead } from './read-mrz';

const MAX_DISTANCE = 3;
const VISUAL_PROB = 0.95;

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

function withNumber(layout: MrzLayout, fitted: LineReading[], number: string): LineReading[] {
  const field = layout.fields.find((f) => f.name === 'document_number')!;
  const padded = number.padEnd(field.end - field.start, '<');
  return fitted.map((line, l) =>
    l !== field.line
      ? line
      : line.map((c, i) => {
          if (i < field.start || i >= field.end) return c;
          const char = padded[i - field.start];
          return char === c.char ? c : { char, prob: VISUAL_PROB, alternative: { char: c.char, prob: c.prob } };
        }),
  );
}

export function confirmNumberFromVisualZone(read: MrzRead, visualTexts: string[], now: Date): MrzRead | null {
  const field = read.layout.fields.find((f) => f.name === 'document_number')!;
  const width = field.end - field.start;
  const mrzNumber = lineText(read.fitted[field.line].slice(field.start, field.end)).replace(/<+$/, '');
  const tokens = new Set(
    visualTexts.map((t) => t.toUpperCase().replace(/[^A-Z0-9]/g, '')).filter((t) => t.length >= 5 && t.length <= width),
  );
  const answers = new Map<string, MrzRead>();
  for (const token of tokens) {
    if (distance(token, mrzNumber) > MAX_DISTANCE) continue;
    const judged = judge(read.layout, read.rawLines, withNumber(read.layout, read.fitted, token), now);
    if (!judged?.parsed.fields.check_digits_valid) continue;
    // Corrections are reported against the MRZ as read, so the audit shows what the visual zone changed.
    const corrections = diff(read.fitted, judged.corrected.lines);
    const confirmed = {
      ...judged,
      fitted: read.fitted,
      corrected: { ...judged.corrected, corrections },
      parsed: { ...judged.parsed, fields: { ...judged.parsed.fields, corrections } },
    };
    answers.set(judged.corrected.lines.join('\n'), confirmed);
  }
  return answers.size === 1 ? [...answers.values()][0] : null;
}
