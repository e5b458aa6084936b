/**
 * CTC readers most often drop or repeat a filler in a long '<<<<' run, which shifts every later
 * field. A line of the wrong length is repaired by adding or removing fillers in its runs (or
 * trimming a stray character at either end), choosing the repair whose fields and check digits fit.
 */
import type { MrzLayout } from './mrz-layouts';
import { insertedFiller, lineText, missingChar, type LineReading } from './mrz-reading';
import { scoreCost, scoreLine } from './structure-score';

/** More edits than this and the line is treated as unread rather than guessed at. */
export const MAX_LENGTH_EDITS = 4;

interface Run {
  start: number;
  end: number;
}

function fillerRuns(text: string): Run[] {
  const runs: Run[] = [];
  for (const m of text.matchAll(/<+/g)) runs.push({ start: m.index, end: m.index + m[0].length });
  return runs;
}

/** Every way to pick `k` items from `choices` with repetition, each at most `limit(i)` times. */
function multisets(count: number, k: number, limit: (i: number) => number): number[][] {
  const out: number[][] = [];
  const walk = (from: number, left: number, picked: number[]): void => {
    if (left === 0) return void out.push([...picked]);
    for (let i = from; i < count; i++) {
      if (picked.filter((p) => p === i).length >= limit(i)) continue;
      picked.push(i);
      walk(i, left - 1, picked);
      picked.pop();
    }
  };
  walk(0, k, []);
  return out;
}

function withInsertions(line: LineReading, slots: number[]): LineReading {
  const out = [...line];
  for (const slot of [...slots].sort((a, b) => b - a)) out.splice(slot, 0, insertedFiller());
  return out;
}

function withDeletions(line: LineReading, positions: number[]): LineReading {
  const drop = new Set(positions);
  return line.filter((_, i) => !drop.has(i));
}

function candidates(line: LineReading, target: number, firstRow: boolean): LineReading[] {
  const text = lineText(line);
  const runs = fillerRuns(text);
  const k = Math.abs(target - line.length);
  if (line.length < target) {
    // One slot per run is enough (inside a run every slot gives the same text), plus the line end.
    const slots = [...new Set([...runs.map((r) => r.end), line.length])];
    const out = multisets(slots.length, k, () => k).map((pick) =>
      withInsertions(
        line,
        pick.map((i) => slots[i]),
      ),
    );
    // A first row opening with a filler lost its document code's letter, the reader's usual slip
    // at a crop's left edge: put back an unknown character there for the code list to fill in.
    if (firstRow && text.startsWith('<')) {
      const restored = [missingChar(), ...line];
      out.push(...(k === 1 ? [restored] : candidates(restored, target, false)));
    }
    return out;
  }
  // Deletions come from a run (any of its fillers; take them from its end) or a stray end character.
  const sources: Array<{ positions: number[] }> = runs.map((r) => ({
    positions: Array.from({ length: r.end - r.start }, (_, j) => r.end - 1 - j),
  }));
  sources.push({ positions: [0] }, { positions: [line.length - 1] });
  return multisets(sources.length, k, (i) => sources[i].positions.length).map((pick) => {
    const used = new Map<number, number>();
    const positions = pick.map((i) => {
      const n = used.get(i) ?? 0;
      used.set(i, n + 1);
      return sources[i].positions[n];
    });
    return withDeletions(line, positions);
  });
}

/**
 * The repaired line, or null when it is too far from the layout's length to repair honestly.
 * `known` holds the other lines already of the right length, for check digits that span lines.
 */
export function fitLineLength(
  layout: MrzLayout,
  lineIndex: number,
  line: LineReading,
  known: Array<string | null> = [],
): LineReading | null {
  const target = layout.lineLength;
  if (line.length === target) return line;
  if (Math.abs(line.length - target) > MAX_LENGTH_EDITS) return null;
  let best: { line: LineReading; cost: number } | null = null;
  for (const candidate of candidates(line, target, lineIndex === 0)) {
    if (candidate.length !== target) continue;
    // Ties go to edits near the end, where the long trailing filler runs are.
    const edits = candidate.reduce((n, c, i) => n + (c.char !== line[i]?.char ? 1 : 0), 0);
    const cost = scoreCost(scoreLine(layout, lineIndex, lineText(candidate), known)) + edits * 1e-3;
    if (!best || cost < best.cost) best = { line: candidate, cost };
  }
  return best?.line ?? null;
}
