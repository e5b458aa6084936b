/**
 * Two reads of one MRZ row (different crops of it) err in different places. Once both are repaired
 * to the row's length, each position takes the more confident character and keeps the other, when
 * they differ, as its runner-up: correction then settles the disagreement with the check digits
 * where one covers the position, and by confidence where none does (names).
 */
import { fitLineLength } from './fit-line-length';
import type { MrzLayout } from './mrz-layouts';
import type { CharReading, LineReading } from './mrz-reading';

function mergeAt(a: CharReading, b: CharReading): CharReading {
  const [first, second] = a.prob >= b.prob ? [a, b] : [b, a];
  if (first.char === second.char) {
    const alternative = [first.alternative, second.alternative].filter((x) => x && x.char !== first.char).sort((x, y) => y!.prob - x!.prob)[0];
    return { char: first.char, prob: first.prob, alternative };
  }
  return { char: first.char, prob: first.prob, alternative: { char: second.char, prob: second.prob } };
}

/** The merged row at the layout's length, or whichever read could be repaired, or null. */
export function mergeRowReads(layout: MrzLayout, lineIndex: number, reads: LineReading[], known: Array<string | null>): LineReading | null {
  const fitted = reads.map((r) => fitLineLength(layout, lineIndex, r, known)).filter((r): r is LineReading => r !== null);
  if (fitted.length === 0) return null;
  return fitted.reduce((merged, next) => merged.map((c, i) => mergeAt(c, next[i])));
}
