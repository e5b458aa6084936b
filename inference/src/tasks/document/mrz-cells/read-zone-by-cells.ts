/**
 * The MRZ's first read by the OCR-B cell classifier. The MRZ-shaped boxes are cut into cells at
 * OCR-B's pitch for their height and classified, which is enough to find the zone (its rows,
 * layout and full-width boxes, by the same rules as for recognised lines); then every row of the
 * zone is cut into exactly the layout's number of cells and all of them classified in one batch.
 * The zone counts as read only when that read settles it (see `cellsSettle`). A zone it nearly
 * settles (every check digit holding, a few positions unsure or corrected) has those positions read
 * again by the CTC recogniser, on short windows of their rows (`settleByWindows`); otherwise the
 * caller reads the page with the recogniser as it always did, so the cells can only save work.
 */
import type { ModelRunner } from '../../../runtime/model-runner';
import type { RgbImage } from '../../../images/rgb-image';
import { DIGIT_TO_LETTER, LETTER_TO_DIGIT } from '../mrz/char-confusions';
import { alignTo, mergeAt } from '../mrz/merge-readings';
import { kindMap, type MrzLayout } from '../mrz/mrz-layouts';
import { lineText, type LineReading } from '../mrz/mrz-reading';
import { readMrz, type MrzRead } from '../mrz/read-mrz';
import { namesAreUnsure } from '../mrz/visual-zone-names';
import { findMrzCandidates, type MrzCandidate } from '../ocr/find-mrz-lines';
import { subBox, type TextBox } from '../ocr/text-box';
import { recognizeLines, type RecognizedLine } from '../ocr/text-recognition';
import { mrzCellsModel, readCells } from './read-cells';

/**
 * Positions whose misread the zone itself would show once every check digit holds uncorrected:
 * digit-only positions (a letter there is corrected) and everything a check digit covers. A check
 * digit tells apart any two characters whose values do not differ by a multiple of 10, which
 * covers OCR-B's look-alikes (0/O/D/Q, 1/I, 2/Z, 5/S, 8/B) but not G/6: a guarded position still
 * needs its character to be the more likely one (CHECKED_FLOOR).
 */
function guardedPositions(layout: MrzLayout): boolean[][] {
  const kinds = kindMap(layout);
  const guarded = kinds.map((row) => row.map((k) => k === 'digit' || k === 'check' || k === 'check-or-filler'));
  for (const rule of layout.checks) {
    guarded[rule.at.line][rule.at.index] = true;
    for (const s of rule.over) for (let i = s.start; i < s.end; i++) guarded[s.line][i] = true;
  }
  return guarded;
}

export const CHECKED_FLOOR = 0.5;

/**
 * Whether the cells' read of a zone stands without the recogniser: every check digit holds with no
 * correction, exact length, every name letter sure, every character the check digits do not guard
 * (names, codes, sex) at least `floor` and every guarded one at least CHECKED_FLOOR.
 */
export function cellsSettle(read: MrzRead | null, rows: LineReading[], floor: number): read is MrzRead {
  if (
    read === null ||
    !read.parsed.fields.check_digits_valid ||
    read.corrected.corrections.length > 0 ||
    namesAreUnsure(read) ||
    rows.some((row) => row.length !== read.layout.lineLength)
  )
    return false;
  const guarded = guardedPositions(read.layout);
  return rows.every((row, line) => row.every((c, i) => c.prob >= (guarded[line][i] ? CHECKED_FLOOR : floor)));
}

/**
 * The floor of `cellsSettle` when the cell reader is served and switched on (`thresholds.first_read`
 * 1 in models/mrz-cells' config), else null: the recogniser reads as before.
 */
export function cellsFirstReadFloor(runner: ModelRunner): number | null {
  let thresholds: Record<string, number> | undefined;
  try {
    thresholds = runner.config(mrzCellsModel).thresholds;
  } catch {
    // Not served (a runner over some models only): the recogniser reads alone.
    return null;
  }
  return thresholds?.first_read === 1 ? (thresholds.settle_floor ?? null) : null;
}

/** Cells each side of an unsure position that the recogniser reads with it, for context. */
const WINDOW_MARGIN = 5;
/** A zone with more unsure positions than this goes to the full recogniser path. */
const MAX_UNSURE = 6;

type Position = { line: number; index: number };

/** The positions `cellsSettle` would not take: under their floor, or changed by correction. */
function unsurePositions(zone: MrzRead, rows: LineReading[], floor: number): Position[] {
  const guarded = guardedPositions(zone.layout);
  const out = new Map<string, Position>();
  rows.forEach((row, line) =>
    row.forEach((c, index) => {
      if (c.prob < (guarded[line][index] ? CHECKED_FLOOR : floor)) out.set(`${line}:${index}`, { line, index });
    }),
  );
  for (const { line, index } of zone.corrected.corrections) out.set(`${line}:${index}`, { line, index });
  return [...out.values()];
}

/** Windows of WINDOW_MARGIN cells around the positions, overlapping ones joined: [start, end) per row. */
function windowsAround(positions: Position[], length: number): Array<{ line: number; start: number; end: number }> {
  const windows: Array<{ line: number; start: number; end: number }> = [];
  const sorted = [...positions].sort((a, b) => a.line - b.line || a.index - b.index);
  for (const { line, index } of sorted) {
    const start = Math.max(0, index - WINDOW_MARGIN);
    const end = Math.min(length, index + WINDOW_MARGIN + 1);
    const last = windows[windows.length - 1];
    if (last && last.line === line && start <= last.end) last.end = Math.max(last.end, end);
    else windows.push({ line, start, end });
  }
  return windows;
}

export interface ZoneWindows {
  unsure: Position[];
  windows: Array<{ line: number; start: number; end: number }>;
}

/**
 * A zone the cells nearly settle: every check digit holds, every row has the layout's length, and
 * at most MAX_UNSURE positions are unsure or corrected. Those positions with WINDOW_MARGIN cells
 * each side, for the recogniser to read again; null for any other zone.
 */
export function windowsToReread(zone: MrzRead | null, rows: LineReading[], floor: number): ZoneWindows | null {
  if (zone === null || !zone.parsed.fields.check_digits_valid) return null;
  if (rows.some((row) => row.length !== zone.layout.lineLength)) return null;
  const unsure = unsurePositions(zone, rows, floor);
  if (unsure.length === 0 || unsure.length > MAX_UNSURE) return null;
  return { unsure, windows: windowsAround(unsure, zone.layout.lineLength) };
}

/** OCR-B's letter/digit look-alikes (char-confusions.ts), either way round. */
const lookAlikes = (a: string, b: string): boolean =>
  LETTER_TO_DIGIT[a] === b || LETTER_TO_DIGIT[b] === a || DIGIT_TO_LETTER[a] === b || DIGIT_TO_LETTER[b] === a;

/** Window characters the alignment may leave unmatched: the crop's ends cut into the neighbours' glyphs. */
const MAX_WINDOW_GAPS = 2;

/**
 * The cells' rows with the windows' reads merged in, or null when a window's read cannot be
 * trusted to sit on its cells. A crop by the row box's fractions gains or loses a glyph at its
 * ends, so each read is aligned to the cells of its window by edit distance (as merge-readings.ts
 * aligns reads of a row); it counts only when every unsure position has a character aligned,
 * every position the cells read surely is either matched by the same character (or its OCR-B
 * look-alike, 0 for O: the recogniser's own usual misread, where the sure cell stands) or left at
 * most MAX_WINDOW_GAPS times unmatched, and none disagrees otherwise: a misplaced crop is refused
 * rather than merged. At the unsure positions the more confident of
 * the two reads wins and the other becomes its runner-up.
 */
export function mergeWindowReads(rows: LineReading[], plan: ZoneWindows, reads: LineReading[]): LineReading[] | null {
  const isUnsure = (line: number, index: number) => plan.unsure.some((p) => p.line === line && p.index === index);
  const patched = rows.map((row) => [...row]);
  for (const [k, w] of plan.windows.entries()) {
    const aligned = alignTo(rows[w.line].slice(w.start, w.end), reads[k]);
    let gaps = 0;
    for (let i = w.start; i < w.end; i++) {
      const cell = rows[w.line][i];
      const other = aligned[i - w.start];
      if (isUnsure(w.line, i)) {
        if (!other) return null;
        patched[w.line][i] = mergeAt(cell, other);
      } else if (!other) gaps += 1;
      else if (other.char !== cell.char && !lookAlikes(other.char, cell.char)) return null;
    }
    if (gaps > MAX_WINDOW_GAPS) return null;
  }
  return patched;
}

/**
 * The recogniser reads the windows of a nearly settled zone (a window of 11 cells is one fifth of
 * a row's input width, against two full rows and more on the full path); the merged read must then
 * settle as `cellsSettle` demands of the cells alone.
 */
async function settleByWindows(
  runner: ModelRunner,
  image: RgbImage,
  candidate: MrzCandidate,
  rows: LineReading[],
  zone: MrzRead | null,
  now: Date,
  floor: number,
): Promise<MrzRead | null> {
  const plan = windowsToReread(zone, rows, floor);
  if (!zone || !plan) return null;
  const length = zone.layout.lineLength;
  const reads = await recognizeLines(
    runner,
    image,
    plan.windows.map((w) => subBox(candidate.rows[w.line].fullBox, w.start / length, w.end / length)),
  );
  const patched = mergeWindowReads(
    rows,
    plan,
    reads.map((r) => r.mrz),
  );
  if (!patched) return null;
  const settled = readMrz(
    zone.layout,
    patched.map((row) => [row]),
    now,
  );
  return cellsSettle(settled, patched, floor) ? settled : null;
}

const mean = (row: LineReading): number => row.reduce((s, c) => s + c.prob, 0) / Math.max(1, row.length);

/** Whether `box` is a piece of one of the zone's rows: centred on a row's line, inside its ends. */
function inZone(box: TextBox, candidate: MrzCandidate): boolean {
  return candidate.rows.some(({ fullBox: row }) => {
    const dx = box.cx - row.cx;
    const dy = box.cy - row.cy;
    const across = -Math.sin(row.angle) * dx + Math.cos(row.angle) * dy;
    const along = Math.cos(row.angle) * dx + Math.sin(row.angle) * dy;
    return Math.abs(across) < 0.5 * row.height && Math.abs(along) < row.width / 2;
  });
}

export interface CellZone {
  read: MrzRead;
  firstRow: TextBox;
  /** The zone's own pieces as the cells read them (the rest of the page is not read). */
  lines: RecognizedLine[];
}

export async function readZoneByCells(
  runner: ModelRunner,
  image: RgbImage,
  shaped: TextBox[],
  now: Date,
  floor: number,
): Promise<CellZone | null> {
  const pieces = await readCells(
    runner,
    image,
    shaped.map((box) => ({ box })),
  );
  const lines = shaped.flatMap((box, i) => {
    const mrz = pieces[i];
    return mrz ? [{ box, text: lineText(mrz), score: mean(mrz), mrz }] : [];
  });
  for (const candidate of findMrzCandidates(lines)) {
    const rows = await readCells(
      runner,
      image,
      candidate.rows.map((r) => ({ box: r.fullBox, count: candidate.layout.lineLength })),
    );
    if (rows.some((r) => r === null)) continue;
    const read = rows as LineReading[];
    const zone = readMrz(
      candidate.layout,
      read.map((r) => [r]),
      now,
    );
    const settled = cellsSettle(zone, read, floor)
      ? zone
      : await settleByWindows(runner, image, candidate, read, zone, now, floor);
    if (settled)
      return {
        read: settled,
        firstRow: candidate.rows[0].fullBox,
        lines: lines.filter((l) => inZone(l.box, candidate)),
      };
  }
  return null;
}
