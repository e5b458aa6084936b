/**
 * Fields whose values come from a closed list: the document code's first letter (the `mrz` parser
 * accepts P for TD3, A, C or I for TD1 and TD2), the sex (M, F, X, '<'), and the issuing state and
 * nationality (ICAO's list of state codes). No check digit covers them,
 * so a misread one is mended here: the cheapest change, using the reader's runner-up characters
 * and common OCR-B look-alikes, that yields exactly one listed value. Ambiguous reads are left as
 * they are, for the parser to reject.
 */
import { isIcaoStateCode } from './issuing-country';
import type { MrzLayout } from './mrz-layouts';
import { UNKNOWN_CHAR, type LineReading } from './mrz-reading';

const LOOKALIKES: Readonly<Record<string, string>> = {
  L: 'I',
  I: 'LT',
  T: 'I',
  O: 'DQUC',
  D: 'O',
  Q: 'O',
  U: 'OV',
  V: 'UY',
  C: 'GO',
  G: 'C',
  E: 'F',
  F: 'EP',
  P: 'FR',
  R: 'PK',
  K: 'RX<',
  M: 'NH',
  N: 'MH',
  H: 'NM',
  '<': 'K',
  X: 'K',
  Y: 'V',
};

const MAX_CHANGES = 2;

interface CodeField {
  line: number;
  start: number;
  end: number;
  valid: (value: string) => boolean;
}

function codeFields(layout: MrzLayout): CodeField[] {
  const at = (name: string) => layout.fields.find((f) => f.name === name)!;
  const firstLetters = layout.format === 'TD3' ? 'P' : 'ACI';
  const code = at('document_code');
  const sex = at('sex');
  const state = (name: string): CodeField => ({ ...at(name), valid: isIcaoStateCode });
  return [
    { line: code.line, start: code.start, end: code.start + 1, valid: (v) => firstLetters.includes(v) },
    { line: sex.line, start: sex.start, end: sex.end, valid: (v) => /^[MFX<]$/.test(v) },
    state('issuing_state'),
    state('nationality'),
  ];
}

/** Candidate characters at one position with their cost (0 for the character as read). */
function choices(read: LineReading[number] | undefined, current: string): Array<{ char: string; cost: number }> {
  if (current === UNKNOWN_CHAR) return [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((char) => ({ char, cost: 1 }));
  const out = [{ char: current, cost: 0 }];
  const alt = read?.alternative;
  if (alt && alt.char !== current && alt.prob > 0)
    out.push({ char: alt.char, cost: Math.max(0.1, Math.log((read?.prob ?? 1) / alt.prob)) });
  for (const char of LOOKALIKES[current] ?? '') if (!out.some((o) => o.char === char)) out.push({ char, cost: 1.5 });
  return out;
}

function bestValue(field: CodeField, chars: string[], reads: LineReading): string | null {
  const options = chars.slice(field.start, field.end).map((c, i) => choices(reads[field.start + i], c));
  let best: { value: string; cost: number } | null = null;
  let tie = false;
  const walk = (i: number, value: string, cost: number, changes: number): void => {
    if (changes > MAX_CHANGES) return;
    if (i === options.length) {
      if (!field.valid(value)) return;
      if (!best || cost < best.cost - 1e-9) {
        best = { value, cost };
        tie = false;
      } else if (Math.abs(cost - best.cost) < 1e-9 && value !== best.value) tie = true;
      return;
    }
    for (const o of options[i]) walk(i + 1, value + o.char, cost + o.cost, changes + (o.cost > 0 ? 1 : 0));
  };
  walk(0, '', 0, 0);
  return best && !tie ? (best as { value: string }).value : null;
}

/** Mends listed-value fields in place; `chars` are the kind-coerced characters, line by line. */
export function mendCodeFields(layout: MrzLayout, chars: string[][], readings: LineReading[]): void {
  for (const field of codeFields(layout)) {
    const line = chars[field.line];
    if (field.valid(line.slice(field.start, field.end).join(''))) continue;
    const value = bestValue(field, line, readings[field.line]);
    if (value) [...value].forEach((c, i) => (line[field.start + i] = c));
  }
}
