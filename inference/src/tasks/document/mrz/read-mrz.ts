/**
 * From the recognised MRZ rows to checked fields: repair each row's length (with the rows already
 * repaired as context for check digits that span rows) and merge its reads, correct it field by
 * field, parse it.
 */
import { correctMrz, type CorrectedMrz } from './correct-mrz';
import { mergeRowReads } from './merge-readings';
import type { MrzLayout } from './mrz-layouts';
import { lineText, type LineReading } from './mrz-reading';
import { parseMrz, type ParsedMrz } from './parse-mrz';

export interface MrzRead {
  layout: MrzLayout;
  /** The rows exactly as first read, before any repair. */
  rawLines: string[];
  corrected: CorrectedMrz;
  parsed: ParsedMrz;
  /** Lowest mean character probability over the rows: how sure the reader was of the weakest row. */
  minRowConfidence: number;
  /** The rows as merged and repaired to length, before correction. */
  fitted: LineReading[];
}

const mean = (line: LineReading): number => line.reduce((s, c) => s + c.prob, 0) / Math.max(1, line.length);

/** `rows[i]` holds every read of row i (at least one). */
export function readMrz(layout: MrzLayout, rows: LineReading[][], now: Date): MrzRead | null {
  if (rows.length !== layout.lineCount || rows.some((reads) => reads.length === 0)) return null;
  const fitted: LineReading[] = [];
  for (let i = 0; i < rows.length; i++) {
    const line = mergeRowReads(layout, i, rows[i], fitted.map(lineText));
    if (!line) return null;
    fitted.push(line);
  }
  return judge(
    layout,
    rows.map((reads) => lineText(reads[0])),
    fitted,
    now,
  );
}

/** Corrects and parses rows already repaired to length. */
export function judge(layout: MrzLayout, rawLines: string[], fitted: LineReading[], now: Date): MrzRead | null {
  const corrected = correctMrz(layout, fitted);
  const parsed = parseMrz(layout, corrected, now);
  if (!parsed) return null;
  return { layout, rawLines, corrected, parsed, minRowConfidence: Math.min(...fitted.map(mean)), fitted };
}
