/**
 * Where each field sits in the three ICAO 9303 machine-readable zones, and what kind of character
 * it may hold. Correction and check-digit search both work from this one table, so a field's type
 * (digits in dates, letters in names) is declared once.
 */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

/**
 * letter: A-Z or '<'; code: A-Z only (a document code's first letter); digit: 0-9; check: a check
 * digit; check-or-filler: a check digit that ICAO lets be '<' (empty optional data, a TD1 number
 * continued in optional data); any: A-Z, 0-9, '<'; sex: M, F, X or '<'.
 */
export type CharKind = 'letter' | 'code' | 'digit' | 'check' | 'check-or-filler' | 'any' | 'sex';

export interface Span {
  line: number;
  start: number;
  end: number;
}

export interface MrzFieldSpec extends Span {
  name: string;
  kind: CharKind;
}

export interface CheckRule {
  name: string;
  /** Position of the check digit. */
  at: { line: number; index: number };
  /** What it is computed over, concatenated in this order. */
  over: Span[];
  /** The optional-data check digit may be '<' when the data it covers is all fillers. */
  fillerAllowedWhenEmpty?: boolean;
}

export interface MrzLayout {
  format: MrzFormat;
  lineCount: number;
  lineLength: number;
  fields: MrzFieldSpec[];
  checks: CheckRule[];
}

const span = (line: number, start: number, end: number): Span => ({ line, start, end });
const field = (name: string, kind: CharKind, line: number, start: number, end: number): MrzFieldSpec => ({
  name,
  kind,
  line,
  start,
  end,
});

const TD1: MrzLayout = {
  format: 'TD1',
  lineCount: 3,
  lineLength: 30,
  fields: [
    field('document_code', 'letter', 0, 0, 2),
    field('document_code_first', 'code', 0, 0, 1),
    field('issuing_state', 'letter', 0, 2, 5),
    field('document_number', 'any', 0, 5, 14),
    field('document_number_check', 'check-or-filler', 0, 14, 15),
    field('optional_1', 'any', 0, 15, 30),
    field('birth_date', 'digit', 1, 0, 6),
    field('birth_date_check', 'check', 1, 6, 7),
    field('sex', 'sex', 1, 7, 8),
    field('expiry_date', 'digit', 1, 8, 14),
    field('expiry_date_check', 'check', 1, 14, 15),
    field('nationality', 'letter', 1, 15, 18),
    field('optional_2', 'any', 1, 18, 29),
    field('composite_check', 'check', 1, 29, 30),
    field('name', 'letter', 2, 0, 30),
  ],
  checks: [
    // A number longer than 9 characters puts '<' here and continues in optional_1 with its own check
    // digit; the composite still covers it, so only the composite rule is enforced for such numbers.
    { name: 'document_number', at: { line: 0, index: 14 }, over: [span(0, 5, 14)] },
    { name: 'birth_date', at: { line: 1, index: 6 }, over: [span(1, 0, 6)] },
    { name: 'expiry_date', at: { line: 1, index: 14 }, over: [span(1, 8, 14)] },
    {
      name: 'composite',
      at: { line: 1, index: 29 },
      over: [span(0, 5, 30), span(1, 0, 7), span(1, 8, 15), span(1, 18, 29)],
    },
  ],
};

/**
 * TD2 and TD3 share one plan: codes and the name on the first row; number, nationality, dates and
 * optional data on the second, closed by the composite check digit. TD3's optional data is a
 * personal number with its own check digit.
 */
function twoRowLayout(format: 'TD2' | 'TD3', lineLength: number): MrzLayout {
  const composite = lineLength - 1;
  const personalCheck = format === 'TD3' ? composite - 1 : null;
  const optionalEnd = personalCheck ?? composite;
  return {
    format,
    lineCount: 2,
    lineLength,
    fields: [
      field('document_code', 'letter', 0, 0, 2),
      field('document_code_first', 'code', 0, 0, 1),
      field('issuing_state', 'letter', 0, 2, 5),
      field('name', 'letter', 0, 5, lineLength),
      field('document_number', 'any', 1, 0, 9),
      field('document_number_check', 'check', 1, 9, 10),
      field('nationality', 'letter', 1, 10, 13),
      field('birth_date', 'digit', 1, 13, 19),
      field('birth_date_check', 'check', 1, 19, 20),
      field('sex', 'sex', 1, 20, 21),
      field('expiry_date', 'digit', 1, 21, 27),
      field('expiry_date_check', 'check', 1, 27, 28),
      field(personalCheck ? 'personal_number' : 'optional_2', 'any', 1, 28, optionalEnd),
      ...(personalCheck ? [field('personal_number_check', 'check-or-filler', 1, personalCheck, composite)] : []),
      field('composite_check', 'check', 1, composite, lineLength),
    ],
    checks: [
      { name: 'document_number', at: { line: 1, index: 9 }, over: [span(1, 0, 9)] },
      { name: 'birth_date', at: { line: 1, index: 19 }, over: [span(1, 13, 19)] },
      { name: 'expiry_date', at: { line: 1, index: 27 }, over: [span(1, 21, 27)] },
      ...(personalCheck
        ? [
            {
              name: 'personal_number',
              at: { line: 1, index: personalCheck },
              over: [span(1, 28, personalCheck)],
              fillerAllowedWhenEmpty: true,
            },
          ]
        : []),
      {
        name: 'composite',
        at: { line: 1, index: composite },
        over: [span(1, 0, 10), span(1, 13, 20), span(1, 21, composite)],
      },
    ],
  };
}

const TD2 = twoRowLayout('TD2', 36);
const TD3 = twoRowLayout('TD3', 44);

export const MRZ_LAYOUTS: Record<MrzFormat, MrzLayout> = { TD1, TD2, TD3 };

export function layoutForShape(lineCount: number, lineLength: number): MrzLayout | null {
  return Object.values(MRZ_LAYOUTS).find((l) => l.lineCount === lineCount && l.lineLength === lineLength) ?? null;
}

/** The kind of character expected at every position, line by line (later fields override earlier ones). */
export function kindMap(layout: MrzLayout): CharKind[][] {
  const kinds: CharKind[][] = Array.from({ length: layout.lineCount }, () =>
    new Array<CharKind>(layout.lineLength).fill('any'),
  );
  for (const f of layout.fields) for (let i = f.start; i < f.end; i++) kinds[f.line][i] = f.kind;
  return kinds;
}
