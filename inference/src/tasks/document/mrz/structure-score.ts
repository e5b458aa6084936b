/**
 * How well a candidate line fits its layout, for choosing among length repairs: characters that no
 * correction could make legal, impossible dates, and check digits that fail. Check digits are
 * judged on this line and on any other line already known, so a TD1 composite can decide too.
 */
import { evaluateChecks } from './check-rules';
import { coerce } from './char-confusions';
import { kindMap, type MrzLayout } from './mrz-layouts';
import { UNKNOWN_CHAR } from './mrz-reading';

function impossibleDates(layout: MrzLayout, lineIndex: number, text: string): number {
  let bad = 0;
  for (const f of layout.fields) {
    if (f.line !== lineIndex || !f.name.endsWith('_date')) continue;
    const value = text.slice(f.start, f.end);
    const month = Number(value.slice(2, 4));
    const day = Number(value.slice(4, 6));
    if (!/^\d{6}$/.test(value) || month < 1 || month > 12 || day < 1 || day > 31) bad++;
  }
  return bad;
}

export interface LineScore {
  failedChecks: number;
  illegalChars: number;
  badDates: number;
}

/** `known` holds the other lines where they are already the right length, else null. */
export function scoreLine(
  layout: MrzLayout,
  lineIndex: number,
  text: string,
  known: Array<string | null> = [],
): LineScore {
  const kinds = kindMap(layout);
  let illegalChars = 0;
  const coerceLine = (t: string, l: number): string =>
    [...t]
      .map((char, i) => {
        const fixed = coerce(kinds[l][i], char);
        if (fixed === null && l === lineIndex && char !== UNKNOWN_CHAR) illegalChars++;
        return fixed ?? char;
      })
      .join('');
  const lines = Array.from({ length: layout.lineCount }, (_, l) => {
    const t = l === lineIndex ? text : known[l];
    return t && t.length === layout.lineLength ? coerceLine(t, l) : null;
  });
  const judged = layout.checks.filter(
    (r) =>
      [r.at, ...r.over].some((p) => p.line === lineIndex) && [r.at, ...r.over].every((p) => lines[p.line] !== null),
  );
  const results = evaluateChecks(
    { ...layout, checks: judged },
    lines.map((l) => l ?? '<'.repeat(layout.lineLength)),
  );
  return {
    failedChecks: results.filter((r) => !r.ok).length,
    illegalChars,
    badDates: impossibleDates(layout, lineIndex, lines[lineIndex] ?? text),
  };
}

/** Lower is better; check digits weigh most because they are the strongest evidence of alignment. */
export const scoreCost = (s: LineScore): number => s.failedChecks * 10 + s.badDates * 5 + s.illegalChars;
