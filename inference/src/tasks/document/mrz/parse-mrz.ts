/**
 * Turns corrected MRZ lines into the contract's MrzFields, with the `mrz` package as the second,
 * independent judge of every check digit (its parse must agree with ours for the MRZ to count as
 * valid). Dates get centuries here because the package leaves them as YYMMDD.
 */
import { parse } from 'mrz';
import type { MrzFields } from '../../task-contracts';
import type { CorrectedMrz } from './correct-mrz';
import { birthDateFromMrz, expiryDateFromMrz } from './mrz-dates';
import type { MrzLayout } from './mrz-layouts';

export interface ParsedMrz {
  fields: MrzFields;
  /** Fields whose content is impossible even though it was read (an unknown state, a 31 February). */
  invalidFields: string[];
}

const clean = (text: string): string => text.replace(/</g, ' ').replace(/\s+/g, ' ').trim();
const slice = (lines: string[], layout: MrzLayout, name: string): string => {
  const f = layout.fields.find((x) => x.name === name);
  return f ? lines[f.line].slice(f.start, f.end) : '';
};

function splitName(field: string): { surname: string; given: string } {
  const [surname, ...rest] = field.split('<<');
  return { surname: clean(surname), given: clean(rest.join('<<')) };
}

const SEX: Readonly<Record<string, MrzFields['sex']>> = { M: 'M', F: 'F', X: 'X', '<': 'X' };

export function parseMrz(layout: MrzLayout, corrected: CorrectedMrz, now: Date): ParsedMrz | null {
  let result: ReturnType<typeof parse>;
  try {
    result = parse(corrected.lines);
  } catch {
    return null;
  }
  if (result.format !== layout.format) return null;
  const lines = corrected.lines;
  const packageChecksOk = result.details.filter((d) => d.field?.endsWith('CheckDigit')).every((d) => d.valid);
  const { surname, given } = splitName(slice(lines, layout, 'name'));
  const birth = birthDateFromMrz(slice(lines, layout, 'birth_date'), now);
  const expiry = expiryDateFromMrz(slice(lines, layout, 'expiry_date'), now);
  const invalidFields = result.details
    .filter((d) => !d.valid && d.field !== null && !d.field.endsWith('CheckDigit') && d.field !== 'sex')
    .map((d) => d.field as string);
  if (birth === null) invalidFields.push('birthDate');
  if (expiry === null) invalidFields.push('expirationDate');
  const fields: MrzFields = {
    format: layout.format,
    document_code: slice(lines, layout, 'document_code').replace(/<+$/, ''),
    issuing_state: slice(lines, layout, 'issuing_state').replace(/<+$/, ''),
    document_number: result.documentNumber ?? clean(slice(lines, layout, 'document_number')),
    surname: result.fields.lastName ?? surname,
    given_names: result.fields.firstName ?? given,
    nationality: slice(lines, layout, 'nationality').replace(/<+$/, ''),
    birth_date: birth ?? '',
    sex: SEX[slice(lines, layout, 'sex')] ?? 'X',
    expiry_date: expiry ?? '',
    check_digits_valid: corrected.checksPass && packageChecksOk,
    corrections: corrected.corrections,
  };
  return { fields, invalidFields: [...new Set(invalidFields)] };
}
