/**
 * Names carry no check digit, so where the MRZ reader was unsure of a name letter the visual zone,
 * which prints the names in an ordinary typeface, is the witness. Each unsure position may take
 * the reader's runner-up; a spelling is confirmed when every name part it touches equals, once
 * transliterated the ICAO way and with spaces dropped (the reader drops them), a line printed in
 * the visual zone. The confirmed spelling with the fewest changes wins; none confirmed, the MRZ
 * reading stands.
 */
import { diff } from './correct-mrz';
import type { LineReading } from './mrz-reading';
import { judge, type MrzRead } from './read-mrz';
import { transliterate } from './transliterate';

/** Letters read less surely than this, with a runner-up at least ALTERNATIVE_PROB, are in doubt. */
const UNSURE = 0.6;
const ALTERNATIVE_PROB = 0.1;
const MAX_DOUBTS = 6;

function nameSpan(read: MrzRead): { line: number; start: number; end: number } {
  return read.layout.fields.find((f) => f.name === 'name')!;
}

function doubtful(read: MrzRead): number[] {
  const span = nameSpan(read);
  const out: number[] = [];
  for (let i = span.start; i < span.end; i++) {
    const c = read.fitted[span.line][i];
    if (
      c.prob < UNSURE &&
      c.alternative &&
      c.alternative.prob >= ALTERNATIVE_PROB &&
      /^[A-Z<]$/.test(c.alternative.char)
    )
      out.push(i);
  }
  return out;
}

/** Whether some name letter was read unsurely enough to ask the visual zone. */
export function namesAreUnsure(read: MrzRead): boolean {
  const span = nameSpan(read);
  return doubtful(read).some((i) => /[A-Z]/.test(read.fitted[span.line][i].char));
}

/** Name parts (surname, given names) of a name field, fillers removed, with the positions they cover. */
function parts(field: string, start: number): Array<{ text: string; from: number; to: number }> {
  const out: Array<{ text: string; from: number; to: number }> = [];
  let from = 0;
  for (const piece of field.split('<<')) {
    const to = from + piece.length;
    if (piece.replace(/</g, '')) out.push({ text: piece.replace(/</g, ''), from: start + from, to: start + to });
    from = to + 2;
  }
  return out;
}

export function confirmNamesFromVisualZone(read: MrzRead, visualTexts: string[], now: Date): MrzRead | null {
  const span = nameSpan(read);
  const doubts = doubtful(read).slice(0, MAX_DOUBTS);
  const printed = new Set(visualTexts.map((t) => transliterate(t).replace(/</g, '')).filter((t) => t.length >= 2));
  const row = read.fitted[span.line];
  let best: { changed: number[]; text: string } | null = null;
  for (let mask = 1; mask < 1 << doubts.length; mask++) {
    const changed = doubts.filter((_, k) => mask & (1 << k));
    if (best && changed.length >= best.changed.length) continue;
    const chars = row.map((c, i) => (changed.includes(i) ? c.alternative!.char : c.char));
    const field = chars.slice(span.start, span.end).join('');
    // A part is touched by a change inside it or right at its ends (a letter turned into a filler).
    const touched = parts(field, span.start).filter((p) => changed.some((i) => i >= p.from - 1 && i <= p.to));
    if (touched.length > 0 && touched.every((p) => printed.has(p.text))) best = { changed, text: chars.join('') };
  }
  if (!best) return null;
  const changed = best.changed;
  const fitted: LineReading[] = read.fitted.map((line, l) =>
    l !== span.line
      ? line
      : line.map((c, i) =>
          changed.includes(i)
            ? {
                char: c.alternative!.char,
                prob: c.alternative!.prob,
                alternative: { char: c.char, prob: c.prob },
              }
            : c,
        ),
  );
  const judged = judge(read.layout, read.rawLines, fitted, now);
  if (!judged) return null;
  const corrections = diff(read.fitted, judged.corrected.lines);
  return {
    ...judged,
    fitted: read.fitted,
    corrected: { ...judged.corrected, corrections },
    parsed: { ...judged.parsed, fields: { ...judged.parsed.fields, corrections } },
  };
}
