/**
 * Letter/digit pairs that OCR-B glyphs make easy to confuse. A position whose type is known (a date
 * holds digits, a name letters) is corrected by these maps; an alphanumeric position (document
 * number, optional data) is only changed where check digits call for it.
 */
import type { CharKind } from './mrz-layouts';

export const LETTER_TO_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  G: '6',
  T: '7',
  B: '8',
};
export const DIGIT_TO_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
  '4': 'A',
};

export function allowedAt(kind: CharKind, char: string): boolean {
  switch (kind) {
    case 'letter':
      return /^[A-Z<]$/.test(char);
    case 'code':
      return /^[A-Z]$/.test(char);
    case 'digit':
      return /^[0-9]$/.test(char);
    case 'check':
      return /^[0-9]$/.test(char);
    case 'check-or-filler':
      return /^[0-9<]$/.test(char);
    case 'sex':
      return /^[MFX<]$/.test(char);
    case 'any':
      return /^[A-Z0-9<]$/.test(char);
  }
}

/** The character a misread should become at a position of this kind, or null when nothing fits. */
export function coerce(kind: CharKind, char: string): string | null {
  if (allowedAt(kind, char)) return char;
  if (kind === 'letter' || kind === 'code') return DIGIT_TO_LETTER[char] ?? null;
  if (kind === 'digit' || kind === 'check' || kind === 'check-or-filler') return LETTER_TO_DIGIT[char] ?? null;
  return null;
}

/** The pairs ambiguous enough in OCR-B that an alphanumeric field is worth re-reading both ways. */
const SWAPS: Readonly<Record<string, string>> = {
  O: '0',
  '0': 'O',
  I: '1',
  '1': 'I',
  B: '8',
  '8': 'B',
  S: '5',
  '5': 'S',
  Z: '2',
  '2': 'Z',
  G: '6',
  '6': 'G',
};

/** The other reading of a confusable character at an alphanumeric position (O for 0 and back). */
export function swapConfusable(char: string): string | null {
  return SWAPS[char] ?? null;
}
