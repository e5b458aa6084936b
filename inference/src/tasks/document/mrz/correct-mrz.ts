/**
 * Field-aware correction of an MRZ reading. First every position is coerced to its field's kind
 * (digits in dates and check digits, letters in codes and names), and fields with a closed list of
 * values (document code, sex, state codes) are mended to a listed value. Then, if check digits still
 * fail, the cheapest small set of substitutions that makes every check digit pass is searched:
 * the reader's runner-up characters (cheap when the reader was unsure) and letter/digit swaps in
 * alphanumeric fields (a fixed cost). A tampered check digit is not "corrected" away: the search
 * needs every check digit to agree, caps the cost it may spend, and gives up when a different fix
 * is nearly as cheap (a check digit is one decimal digit of evidence; in TD2 and TD3 the composite
 * adds none for the document number, which it weighs the same way).
 */
import { allChecksPass, evaluateChecks } from './check-rules';
import { allowedAt, coerce, swapConfusable } from './char-confusions';
import { mendCodeFields } from './code-fields';
import { kindMap, type CharKind, type MrzLayout } from './mrz-layouts';
import type { LineReading } from './mrz-reading';

export interface Correction {
  line: number;
  index: number;
  from: string;
  to: string;
}

export interface CorrectedMrz {
  lines: string[];
  corrections: Correction[];
  checksPass: boolean;
  failedChecks: string[];
}

export interface CorrectionOptions {
  /** Most substitutions the check-digit search may combine. */
  maxChanges: number;
  /** Highest total cost accepted; a runner-up costs ln(p_read / p_alt), a letter/digit swap 1 or 2. */
  maxCost: number;
  /** Runner-up characters less likely than this are not considered. */
  minAlternativeProb: number;
}

export const DEFAULT_CORRECTION: CorrectionOptions = { maxChanges: 3, maxCost: 3, minAlternativeProb: 0.02 };

/** OCR-B's O and 0 differ by a hair and the reader leans to 0, so that swap is the cheapest. */
const swapCost = (from: string, to: string): number => (from + to === 'O0' || from + to === '0O' ? 1 : 2);
/** Round letters the reader gives for an OCR-B O. */
const ROUND_LETTERS: Readonly<Record<string, string>> = { D: 'O', Q: 'O' };

interface Option {
  line: number;
  index: number;
  to: string;
  cost: number;
}

function coerceAll(readings: LineReading[], kinds: CharKind[][]): string[][] {
  return readings.map((line, l) =>
    line.map((c, i) => {
      const kind = kinds[l][i];
      const alt = c.alternative && allowedAt(kind, c.alternative.char) ? c.alternative.char : null;
      return coerce(kind, c.char) ?? alt ?? c.char;
    }),
  );
}

/** Every position where the final lines differ from what was read. */
export function diff(readings: LineReading[], chars: string[][] | string[]): Correction[] {
  const out: Correction[] = [];
  readings.forEach((line, l) =>
    line.forEach((c, index) => {
      if (chars[l][index] !== c.char) out.push({ line: l, index, from: c.char, to: chars[l][index] });
    }),
  );
  return out;
}

function searchOptions(
  layout: MrzLayout,
  readings: LineReading[],
  chars: string[][],
  kinds: CharKind[][],
  failing: Set<string>,
  opts: CorrectionOptions,
): Option[] {
  const positions = new Set<string>();
  for (const rule of layout.checks.filter((r) => failing.has(r.name))) {
    positions.add(`${rule.at.line}:${rule.at.index}`);
    for (const s of rule.over) for (let i = s.start; i < s.end; i++) positions.add(`${s.line}:${i}`);
  }
  const options: Option[] = [];
  for (const key of positions) {
    const [line, index] = key.split(':').map(Number);
    const current = chars[line][index];
    const read = readings[line][index];
    const kind = kinds[line][index];
    // Several ways to the same character (the runner-up, its look-alike, a letter/digit swap) are
    // alternative explanations of one misread: their likelihoods add up (costs are -ln p).
    const likelihood = new Map<string, number>();
    const offer = (to: string | null, cost: number): void => {
      if (to === null || to === current || !allowedAt(kind, to)) return;
      likelihood.set(to, (likelihood.get(to) ?? 0) + Math.exp(-cost));
    };
    const alt = read.alternative;
    if (alt && alt.prob >= opts.minAlternativeProb) {
      const altCost = Math.max(0.1, Math.log(read.prob / alt.prob));
      offer(alt.char, altCost);
      // The runner-up's own look-alike: a 'B' or 'D' the reader hesitated over may be an 8 or an O.
      offer(swapConfusable(alt.char) ?? ROUND_LETTERS[alt.char] ?? null, altCost);
    }
    if (kind === 'any') {
      const swapped = swapConfusable(current);
      if (swapped) offer(swapped, swapCost(current, swapped));
    }
    for (const [to, p] of likelihood) options.push({ line, index, to, cost: -Math.log(p) });
  }
  return options.sort((a, b) => a.cost - b.cost);
}

/**
 * The cheapest combination of options (distinct positions) that makes every check digit pass, or
 * null when there is none, or when another combination giving different lines costs less than
 * AMBIGUITY_MARGIN more: a check digit is one decimal digit of evidence, so two fixes that both
 * satisfy it are a guess, and a guessed document number is worse than an unread one.
 */
const AMBIGUITY_MARGIN = 0.5;

function cheapestFix(
  layout: MrzLayout,
  chars: string[][],
  options: Option[],
  opts: CorrectionOptions,
): Option[] | null {
  const found: Array<{ picked: Option[]; cost: number }> = [];
  const trial = chars.map((l) => [...l]);
  const walk = (from: number, picked: Option[], cost: number): void => {
    if (
      picked.length > 0 &&
      allChecksPass(
        layout,
        trial.map((l) => l.join('')),
      )
    ) {
      found.push({ picked: [...picked], cost });
      return;
    }
    if (picked.length === opts.maxChanges) return;
    for (let i = from; i < options.length; i++) {
      const o = options[i];
      if (cost + o.cost > opts.maxCost) continue;
      if (picked.some((p) => p.line === o.line && p.index === o.index)) continue;
      const before = trial[o.line][o.index];
      trial[o.line][o.index] = o.to;
      picked.push(o);
      walk(i + 1, picked, cost + o.cost);
      picked.pop();
      trial[o.line][o.index] = before;
    }
  };
  walk(0, [], 0);
  found.sort((a, b) => a.cost - b.cost);
  const [best, runnerUp] = found;
  if (!best) return null;
  return runnerUp && runnerUp.cost < best.cost + AMBIGUITY_MARGIN ? null : best.picked;
}

export function correctMrz(
  layout: MrzLayout,
  readings: LineReading[],
  opts: CorrectionOptions = DEFAULT_CORRECTION,
): CorrectedMrz {
  const kinds = kindMap(layout);
  const chars = coerceAll(readings, kinds);
  mendCodeFields(layout, chars, readings);
  const failing = new Set(
    evaluateChecks(
      layout,
      chars.map((l) => l.join('')),
    )
      .filter((r) => !r.ok)
      .map((r) => r.name),
  );
  if (failing.size > 0) {
    const fix = cheapestFix(layout, chars, searchOptions(layout, readings, chars, kinds, failing, opts), opts);
    for (const o of fix ?? []) chars[o.line][o.index] = o.to;
  }
  const lines = chars.map((l) => l.join(''));
  const failedChecks = evaluateChecks(layout, lines)
    .filter((r) => !r.ok)
    .map((r) => r.name);
  return { lines, corrections: diff(readings, chars), checksPass: failedChecks.length === 0, failedChecks };
}
