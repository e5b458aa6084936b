/**
 * The MRZ's first read by the OCR-B cell classifier. The MRZ-shaped boxes are cut into cells at
 * OCR-B's pitch for their height and classified, which is enough to find the zone (its rows,
 * layout and full-width boxes, by the same rules as for recognised lines); then every row of the
 * zone is cut into exactly the layout's number of cells and all of them classified in one batch.
 * The zone counts as read only when that read settles it (see `cellsSettle`); otherwise the caller
 * reads the page with the CTC recogniser as it always did, so the cells can only save work.
 */
import type { ModelRunner } from '../../../runtime/model-runner';
import type { RgbImage } from '../../../images/rgb-image';
import { kindMap, type MrzLayout } from '../mrz/mrz-layouts';
import { lineText, type LineReading } from '../mrz/mrz-reading';
import { readMrz, type MrzRead } from '../mrz/read-mrz';
import { namesAreUnsure } from '../mrz/visual-zone-names';
import { findMrzCandidates, type MrzCandidate } from '../ocr/find-mrz-lines';
import type { TextBox } from '../ocr/text-box';
import type { RecognizedLine } from '../ocr/text-recognition';
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
    if (cellsSettle(zone, read, floor))
      return { read: zone, firstRow: candidate.rows[0].fullBox, lines: lines.filter((l) => inZone(l.box, candidate)) };
  }
  return null;
}
