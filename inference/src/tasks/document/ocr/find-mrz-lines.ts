/**
 * Picks the machine-readable zone out of the recognised lines: lines written only in the MRZ
 * alphabet, pieces of one row joined, stacked rows aligned on their left edge, two or three of
 * them, of a length that fits TD1, TD2 or TD3. Several stacks can qualify (a long code printed
 * elsewhere); they are returned bottom first, since ICAO puts the MRZ at the foot of the page.
 *
 * The detector often stops short in a long run of fillers (a name row ends in '<<<<<<<<'), or
 * splits a row. All rows of an MRZ share one left and right edge, so each candidate also carries,
 * per row, the box spanning the zone's full width, for a second read of every row.
 */
import { MRZ_LAYOUTS, type MrzLayout } from '../mrz/mrz-layouts';
import type { LineReading } from '../mrz/mrz-reading';
import type { TextBox } from './text-box';
import type { RecognizedLine } from './text-recognition';

export interface MrzRow {
  /** The row as read from its detected pieces (possibly cut short). */
  reading: LineReading;
  /** The row across the zone's full width, in source pixels. */
  fullBox: TextBox;
}
export interface MrzCandidate {
  layout: MrzLayout;
  rows: MrzRow[];
}

const MIN_ROW_LENGTH = 20;
const MRZ_CHARS = /[A-Z0-9<]/g;

function mrzLike(line: RecognizedLine): boolean {
  const text = line.text.replace(/\s/g, '');
  if (line.mrz.length < 3 || text.length === 0) return false;
  return (text.match(MRZ_CHARS)?.length ?? 0) / text.length >= 0.9;
}

/** Coordinates along and across the page's dominant text direction. */
interface Frame {
  angle: number;
  along: (b: TextBox) => number;
  across: (b: TextBox) => number;
  toImage: (along: number, across: number) => [number, number];
}

function frameOf(lines: RecognizedLine[]): Frame {
  const angles = lines.map((l) => l.box.angle).sort((a, b) => a - b);
  const angle = angles[Math.floor(angles.length / 2)] ?? 0;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return {
    angle,
    along: (b) => c * b.cx + s * b.cy,
    across: (b) => -s * b.cx + c * b.cy,
    toImage: (u, v) => [c * u - s * v, s * u + c * v],
  };
}

interface RawRow {
  pieces: RecognizedLine[];
  left: number;
  right: number;
  across: number;
  height: number;
  length: number;
}

function joinRows(lines: RecognizedLine[], f: Frame): RawRow[] {
  const sorted = [...lines].sort((a, b) => f.across(a.box) - f.across(b.box));
  const groups: RecognizedLine[][] = [];
  for (const line of sorted) {
    const group = groups[groups.length - 1];
    const sameRow =
      group &&
      Math.abs(f.across(line.box) - f.across(group[0].box)) < 0.5 * Math.min(line.box.height, group[0].box.height);
    if (sameRow) group.push(line);
    else groups.push([line]);
  }
  return groups.map((pieces) => {
    pieces.sort((a, b) => f.along(a.box) - f.along(b.box));
    const heights = pieces.map((p) => p.box.height).sort((a, b) => a - b);
    return {
      pieces,
      left: Math.min(...pieces.map((p) => f.along(p.box) - p.box.width / 2)),
      right: Math.max(...pieces.map((p) => f.along(p.box) + p.box.width / 2)),
      across: pieces.reduce((s, p) => s + f.across(p.box), 0) / pieces.length,
      height: heights[Math.floor(heights.length / 2)],
      length: pieces.reduce((n, p) => n + p.mrz.length, 0),
    };
  });
}

/**
 * Layouts a stack of rows could be, most likely first. Every layout's second row ends in a check
 * digit, so a bottom row ending in '<' was cut short and may belong to a longer layout.
 */
function layoutsFor(rows: RawRow[]): MrzLayout[] {
  const longest = Math.max(...rows.map((r) => r.length));
  if (rows.length === 3) return longest < 36 ? [MRZ_LAYOUTS.TD1] : [];
  if (rows.length !== 2) return [];
  const bottom = rows[1].pieces[rows[1].pieces.length - 1].mrz;
  const cutShort = bottom[bottom.length - 1]?.char === '<';
  if (longest >= 40) return [MRZ_LAYOUTS.TD3];
  if (cutShort) return [MRZ_LAYOUTS.TD3, MRZ_LAYOUTS.TD2];
  return longest >= 33 ? [MRZ_LAYOUTS.TD2] : [];
}

/** A DB box is the text grown by about 0.3 of its height on each end (unclip ratio 1.5). */
const END_MARGIN = 0.3;

function toCandidate(layout: MrzLayout, rows: RawRow[], f: Frame): MrzCandidate {
  // MRZ characters are evenly spaced, so a row's read gives the pitch, and the pitch the zone's
  // full width, even when every row was cut short. The widest estimate is kept: a reader that
  // invents a filler shrinks its row's estimate, and a zone cut too narrow loses its check digit,
  // while one too wide only adds background. A character of slack at each end keeps the first and
  // last characters away from the crop's edges, where the reader drops them.
  const pitch = Math.max(...rows.map((r) => (r.right - r.left - 2 * END_MARGIN * r.height) / Math.max(1, r.length)));
  const height = Math.max(...rows.map((r) => r.height));
  const textLeft = Math.min(...rows.map((r) => r.left));
  const textRight = Math.max(
    ...rows.map((r) => r.right),
    textLeft + pitch * layout.lineLength + 2 * END_MARGIN * height,
  );
  const left = textLeft - pitch;
  const right = textRight + pitch;
  return {
    layout,
    rows: rows.map((r) => {
      const [cx, cy] = f.toImage((left + right) / 2, r.across);
      return {
        reading: r.pieces.flatMap((p) => p.mrz),
        fullBox: {
          cx,
          cy,
          width: right - left,
          height: r.height,
          angle: f.angle,
          score: Math.min(...r.pieces.map((p) => p.box.score)),
        },
      };
    }),
  };
}

export function findMrzCandidates(lines: RecognizedLine[]): MrzCandidate[] {
  const mrz = lines.filter(mrzLike);
  if (mrz.length === 0) return [];
  const f = frameOf(mrz);
  const rows = joinRows(mrz, f);
  const stacks: RawRow[][] = [];
  for (const row of rows) {
    const stack = stacks[stacks.length - 1];
    const previous = stack?.[stack.length - 1];
    const adjacent =
      previous &&
      row.across - previous.across < 2.5 * previous.height &&
      Math.abs(row.left - previous.left) < 3 * previous.height;
    if (adjacent) stack.push(row);
    else stacks.push([row]);
  }
  const candidates: MrzCandidate[] = [];
  for (const stack of stacks.reverse()) {
    // The zone's rows are the last ones of a stack; text just above may merely look like MRZ.
    for (const size of [3, 2]) {
      if (stack.length < size) continue;
      const tail = stack.slice(stack.length - size);
      if (!tail.some((r) => r.length >= MIN_ROW_LENGTH)) continue;
      for (const layout of layoutsFor(tail)) candidates.push(toCandidate(layout, tail, f));
    }
  }
  return candidates;
}
