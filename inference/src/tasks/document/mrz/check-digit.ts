/**
 * ICAO 9303 part 3, 4.9: digits keep their value, A-Z count 10-35, the filler '<' counts 0, and the
 * values are weighted 7, 3, 1 repeating; the check digit is the sum modulo 10.
 */
const WEIGHTS = [7, 3, 1];

export function mrzCharValue(char: string): number {
  const code = char.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  if (char === '<') return 0;
  throw new RangeError(`"${char}" is not an MRZ character`);
}

export function checkDigit(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += mrzCharValue(text[i]) * WEIGHTS[i % 3];
  return String(sum % 10);
}

export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

export function isMrzText(text: string): boolean {
  return /^[A-Z0-9<]*$/.test(text);
}
