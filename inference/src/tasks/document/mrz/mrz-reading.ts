/** What recognition hands to MRZ correction: each character with its probability and the runner-up. */
export interface CharReading {
  char: string;
  prob: number;
  /** The most likely other character at the same CTC frame, when there is one. */
  alternative?: { char: string; prob: number };
}

export type LineReading = CharReading[];

export const lineText = (line: LineReading): string => line.map((c) => c.char).join('');

/** A character the reader never saw (a filler restored to fix a line's length). */
export const insertedFiller = (): CharReading => ({ char: '<', prob: 0.5 });

/** A character known to be missing but not which: only a closed list of values can fill it in. */
export const UNKNOWN_CHAR = '?';
export const missingChar = (): CharReading => ({ char: UNKNOWN_CHAR, prob: 0 });

export function readingOf(text: string, prob = 1): LineReading {
  return [...text].map((char) => ({ char, prob }));
}
