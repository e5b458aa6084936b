/**
 * Reads the machine-readable zone of a document photo. Only boxes shaped like MRZ rows (long, or
 * stacked under a long one and left-aligned with it) are recognised at first. A candidate zone
 * whose first read settles it keeps the rows read surely as they are; every other row (all of
 * them, when the first read does not settle the zone) is read a second time across the zone's full
 * width, and both reads merged.
 * The rest of the page is recognised only when needed: no zone with valid check digits turned up
 * (the rest may hold the zone, or the visual zone's document number to settle a misread one), or
 * a name letter was read unsurely (the visual zone prints the names).
 * Where the OCR-B cell classifier is switched on (models/mrz-cells), it reads first, and a zone
 * it settles is not recognised at all; anything else is read as above.
 * Where the band finder is switched on too (`band_long_side` in models/text-detection) and the
 * applicant declared a passport, the cells first read the MRZ-shaped boxes detected on the page
 * reduced to that long side: the boxes are in source pixels and re-fitted to their rows' ink
 * (refitToInk), so the cells are still cut at full resolution, as from the full page's boxes. A passport's zone that read settles costs one small detection; anything else (a zone
 * it does not settle, a page that is not a passport after all) is read by the full-page path,
 * unchanged. Cards and permits, declared or not, skip the band: their address is read from the
 * full page's boxes, which they would need anyway.
 */
import type { ModelRunner } from '../../runtime/model-runner';
import type { RgbImage } from '../../images/rgb-image';
import type { DocumentType } from '../task-contracts';
import { documentTypeFromCode } from './mrz/document-type';
import { UNKNOWN_CHAR, type LineReading } from './mrz/mrz-reading';
import { readMrz, type MrzRead } from './mrz/read-mrz';
import { confirmNamesFromVisualZone, namesAreUnsure } from './mrz/visual-zone-names';
import { confirmNumberFromVisualZone } from './mrz/visual-zone-number';
import { refitToInk } from './mrz-cells/cut-cells';
import { cellsFirstReadFloor, readZoneByCells } from './mrz-cells/read-zone-by-cells';
import { findMrzCandidates, type MrzCandidate } from './ocr/find-mrz-lines';
import { subBox, type TextBox } from './ocr/text-box';
import { bandLongSide, detectText } from './ocr/text-detection';
import { recognizeLines, type RecognizedLine } from './ocr/text-recognition';

/** Every MRZ row is 20-30 times longer than tall when read whole; titles rarely pass 15. */
const ROW_ASPECT = 15;

/** Long boxes, plus boxes in the same stack (a row the detector cut short in its fillers). */
export function mrzShapedBoxes(boxes: TextBox[]): TextBox[] {
  const anchors = boxes.filter((b) => b.width >= ROW_ASPECT * b.height);
  const left = (b: TextBox): number => b.cx - (Math.cos(b.angle) * b.width) / 2;
  return boxes.filter(
    (b) =>
      anchors.includes(b) ||
      anchors.some(
        (a) =>
          Math.abs(left(a) - left(b)) < 2 * a.height &&
          Math.abs(a.cy - b.cy) < 2.5 * a.height &&
          b.width >= 4 * b.height,
      ),
  );
}

/** The share of the first row re-read on its own when its first letter was lost or unsure. */
const HEAD = 0.4;

/**
 * The reader's weakest spot is a crop's first character, which is the document code's letter. A
 * short crop of the row's head puts it in another context; that third read is merged like the others.
 */
function headIsUnsure(read: MrzRead): boolean {
  const first = read.fitted[0][0];
  return first.char === UNKNOWN_CHAR || first.prob < 0.5;
}

/**
 * No character of a row kept as first read may be less sure than this. On the 180 labelled
 * documents it separates nothing (the wrong characters of first reads, O read as 0, came at
 * 0.95-1.00 and were caught by correction; see benchmarks/document-read/README.md, "Reading each
 * MRZ row once"): it is a margin, the line under which visual-zone-names.ts already doubts a letter.
 */
export const ROW_FLOOR = 0.6;

/**
 * The rows to read again across the zone's full width. A zone whose first read holds every check
 * digit without a correction, with its head and names sure, keeps each row read at exactly the
 * layout's length with every character over the floor: a row of another length was repaired, and
 * a repair can pass every check digit and still be wrong (a filler lost between two name parts, a
 * row cut short and refilled in the wrong run), which the full-width read sets right.
 */
function rowsToReread(once: MrzRead | null, firstReads: LineReading[]): number[] {
  const settled =
    once !== null &&
    once.parsed.fields.check_digits_valid &&
    once.corrected.corrections.length === 0 &&
    !headIsUnsure(once) &&
    !namesAreUnsure(once);
  const keep = (row: LineReading): boolean =>
    settled && row.length === once.layout.lineLength && row.every((c) => c.prob >= ROW_FLOOR);
  return firstReads.flatMap((row, i) => (keep(row) ? [] : [i]));
}

interface ZoneRead {
  read: MrzRead;
  firstRow: TextBox;
}

/** Candidates already read, by layout and rows, so a second pass over more lines skips them. */
const candidateKey = (c: MrzCandidate): string =>
  `${c.layout.format}:${c.rows.map((r) => `${Math.round(r.fullBox.cx)},${Math.round(r.fullBox.cy)}`).join(';')}`;

async function readCandidates(
  runner: ModelRunner,
  image: RgbImage,
  lines: RecognizedLine[],
  now: Date,
  tried: Set<string>,
): Promise<ZoneRead | null> {
  let fallback: ZoneRead | null = null;
  for (const candidate of findMrzCandidates(lines)) {
    if (tried.has(candidateKey(candidate))) continue;
    tried.add(candidateKey(candidate));
    const firstRow = candidate.rows[0].fullBox;
    const firstReads = candidate.rows.map((r) => [r.reading]);
    const again = rowsToReread(
      readMrz(candidate.layout, firstReads, now),
      candidate.rows.map((r) => r.reading),
    );
    const full = await recognizeLines(
      runner,
      image,
      again.map((i) => candidate.rows[i].fullBox),
    );
    // A read cut short still counts: merging aligns it with the part of the row it covers.
    const reads = firstReads.map((first, i) => (again.includes(i) ? [...first, full[again.indexOf(i)].mrz] : first));
    let read = readMrz(candidate.layout, reads, now);
    if (read && headIsUnsure(read)) {
      const [head] = await recognizeLines(runner, image, [subBox(firstRow, 0, HEAD)]);
      read = readMrz(candidate.layout, [[...reads[0], head.mrz], ...reads.slice(1)], now) ?? read;
    }
    if (!read) continue;
    if (read.parsed.fields.check_digits_valid) return { read, firstRow };
    fallback ??= { read, firstRow };
  }
  return fallback;
}

export interface PageText {
  read: MrzRead | null;
  /** The MRZ's first row across the zone's width, where one was read. */
  firstRow: TextBox | null;
  /** Every line recognised so far, and every box detected. */
  lines: RecognizedLine[];
  boxes: TextBox[];
}

export async function readMachineZone(
  runner: ModelRunner,
  image: RgbImage,
  now: Date,
  declaredType?: DocumentType,
): Promise<PageText> {
  const floor = cellsFirstReadFloor(runner);
  const band = floor === null || declaredType !== 'passport' ? null : bandLongSide(runner);
  if (floor !== null && band !== null) {
    const reduced = await detectText(runner, image, {}, band);
    const rows = mrzShapedBoxes(reduced).map((box) => refitToInk(image, box));
    const byBand = await readZoneByCells(runner, image, rows, now, floor);
    // Cards and permits print their address in small type that the reduced page loses (on the 180
    // documents address line 1 fell from 91.4 to 68.6 %): they need the full page's boxes.
    if (byBand && documentTypeFromCode(byBand.read.parsed.fields.document_code) === 'passport')
      return { ...byBand, boxes: reduced };
  }
  const boxes = await detectText(runner, image);
  const shaped = mrzShapedBoxes(boxes);
  const byCells = floor === null ? null : await readZoneByCells(runner, image, shaped, now, floor);
  if (byCells) return { ...byCells, boxes };
  let lines = await recognizeLines(runner, image, shaped);
  const tried = new Set<string>();
  let zone = await readCandidates(runner, image, lines, now, tried);
  const readRest = async (): Promise<void> => {
    if (lines.length < boxes.length)
      lines = [
        ...lines,
        ...(await recognizeLines(
          runner,
          image,
          boxes.filter((b) => !shaped.includes(b)),
        )),
      ];
  };
  const texts = (): string[] => lines.map((l) => l.text);
  if (!zone?.read.parsed.fields.check_digits_valid) {
    await readRest();
    zone = (await readCandidates(runner, image, lines, now, tried)) ?? zone;
    const confirmed =
      zone && !zone.read.parsed.fields.check_digits_valid ? confirmNumberFromVisualZone(zone.read, texts(), now) : null;
    if (zone && confirmed) zone = { ...zone, read: confirmed };
  }
  if (zone && namesAreUnsure(zone.read)) {
    await readRest();
    zone = { ...zone, read: confirmNamesFromVisualZone(zone.read, texts(), now) ?? zone.read };
  }
  return { read: zone?.read ?? null, firstRow: zone?.firstRow ?? null, lines, boxes };
}
