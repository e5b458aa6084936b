/**
 * Two reads of one MRZ row (different crops of it) err in different places. The read closest to
 * the row's length (then the more confident) is repaired to that length; the other is aligned to
 * it by edit distance, so a character dropped or doubled in one read does not shift the rest. At
 * each aligned position the more confident character wins and the other, when they differ, becomes
 * its runner-up: correction then settles the disagreement with the check digits where one covers
 * the position, and by confidence where none does (names).
 */
import { fitLineLength } from './fit-line-length';
import type { MrzLayout } from './mrz-layouts';
import type { CharReading, LineReading } from './mrz-reading';

/** Two reads of one position: the more confident character, the other as its runner-up. */
export function mergeAt(a: CharReading, b: CharReading): CharReading {
  const [first, second] = a.prob >= b.prob ? [a, b] : [b, a];
  if (first.char === second.char) {
    const alternative = [first.alternative, second.alternative]
      .filter((x) => x && x.char !== first.char)
      .sort((x, y) => y!.prob - x!.prob)[0];
    return { char: first.char, prob: first.prob, alternative };
  }
  return { char: first.char, prob: first.prob, alternative: { char: second.char, prob: second.prob } };
}

/** For each position of `base`, the character of `other` aligned with it (null where `other` has a gap). */
export function alignTo(base: LineReading, other: LineReading): Array<CharReading | null> {
  const n = base.length;
  const m = other.length;
  const cost = Array.from({ length: n + 1 }, (_, i) =>
    Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const substitute = cost[i - 1][j - 1] + (base[i - 1].char === other[j - 1].char ? 0 : 1);
      cost[i][j] = Math.min(substitute, cost[i - 1][j] + 1, cost[i][j - 1] + 1);
    }
  }
  const aligned = new Array<CharReading | null>(n).fill(null);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    if (cost[i][j] === cost[i - 1][j - 1] + (base[i - 1].char === other[j - 1].char ? 0 : 1)) {
      aligned[i - 1] = other[j - 1];
      i--;
      j--;
    } else if (cost[i][j] === cost[i - 1][j] + 1) i--;
    else j--;
  }
  return aligned;
}

const meanProb = (line: LineReading): number => line.reduce((s, c) => s + c.prob, 0) / Math.max(1, line.length);

/** The merged row at the layout's length, or null when no read can be repaired to it. */
export function mergeRowReads(
  layout: MrzLayout,
  lineIndex: number,
  reads: LineReading[],
  known: Array<string | null>,
): LineReading | null {
  const ranked = [...reads].sort(
    (a, b) =>
      Math.abs(a.length - layout.lineLength) - Math.abs(b.length - layout.lineLength) || meanProb(b) - meanProb(a),
  );
  let base: LineReading | null = null;
  for (const read of ranked) {
    base = fitLineLength(layout, lineIndex, read, known);
    if (base) break;
  }
  if (!base) return null;
  for (const read of ranked) {
    const aligned = alignTo(base, read);
    base = base.map((c, i) => (aligned[i] ? mergeAt(c, aligned[i]) : c));
  }
  return base;
}
