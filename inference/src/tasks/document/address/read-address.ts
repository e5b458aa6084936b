/**
 * Best-effort address from the visual zone: the lines printed under an "Address" label (in a few
 * languages), the last of them split into postal code and city when it starts with a code. Nothing
 * here is checked the way the MRZ is, so the result is always flagged as best effort; the country
 * is assumed to be the issuing state's.
 */
import type { DocumentCheckOutput } from '../../task-contracts';
import type { RecognizedLine } from '../ocr/text-recognition';

export type Address = NonNullable<NonNullable<DocumentCheckOutput['person']>['address']>;

const LABEL = /(address|adresse|anschrift|domicilio|indirizzo|adres|osoite|direcci[oó]n|morada)/i;
/** Labels are matched with spaces removed: the reader's spacing of small print is unreliable. */
const isLabel = (text: string): boolean => LABEL.test(text.replace(/\s+/g, ''));
/** A postal code: digits, perhaps after two letters, perhaps with a dashed or spaced second group. */
const POSTAL_THEN_CITY = /^([A-Z]{0,2}\d+(?:-\d+|[ ][\dA-Z]{2,4}(?=\s))?)\s*([A-Z][A-Z .'-]+)$/;
const MAX_LINES = 3;

export function readAddress(lines: RecognizedLine[], country: string | null): Address | null {
  const label = lines.find((l) => isLabel(l.text));
  if (!label) return null;
  const below = lines
    .filter(
      (l) =>
        l !== label &&
        l.box.cy > label.box.cy &&
        Math.abs(l.box.cx - l.box.width / 2 - (label.box.cx - label.box.width / 2)) < 2 * label.box.height,
    )
    .sort((a, b) => a.box.cy - b.box.cy);
  const taken: RecognizedLine[] = [];
  let previous = label;
  for (const line of below) {
    if (
      line.box.cy - previous.box.cy > 1.6 * Math.max(line.box.height, previous.box.height) ||
      taken.length === MAX_LINES
    )
      break;
    if (isLabel(line.text) || line.text.trim() === '') break;
    taken.push(line);
    previous = line;
  }
  if (taken.length === 0) return null;
  const texts = taken.map((l) => l.text.trim());
  const last = POSTAL_THEN_CITY.exec(texts[texts.length - 1].toUpperCase());
  const street = last ? texts.slice(0, -1) : texts;
  return {
    line1: street[0] ?? null,
    line2: street.slice(1).join(' ') || null,
    city: last ? last[2].trim() : null,
    region: null,
    postal_code: last ? last[1].trim() : null,
    country,
  };
}
