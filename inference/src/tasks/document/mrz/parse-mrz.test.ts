import { correctMrz } from './correct-mrz';
import { documentTypeFromCode } from './document-type';
import { alpha2FromMrzState } from './issuing-country';
import { isExpired } from './mrz-dates';
import { MRZ_LAYOUTS } from './mrz-layouts';
import { readingOf } from './mrz-reading';
import { parseMrz } from './parse-mrz';

const NOW = new Date('2025-11-01T00:00:00Z');
const GERMAN_ID = [
  'IDD<<T220001293<<<<<<<<<<<<<<<',
  '6408125<2010315D<<<<<<<<<<<<<4',
  'MUSTERMANN<<ERIKA<<<<<<<<<<<<<',
];

function parsed(format: 'TD1' | 'TD2' | 'TD3', lines: string[]) {
  const layout = MRZ_LAYOUTS[format];
  return parseMrz(
    layout,
    correctMrz(
      layout,
      lines.map((l) => readingOf(l)),
    ),
    NOW,
  );
}

describe('parsing a corrected MRZ into the contract fields', () => {
  it('reads the German identity card specimen, whose issuing state is the one-letter code D', () => {
    const out = parsed('TD1', GERMAN_ID);
    expect(out?.fields).toMatchObject({
      format: 'TD1',
      document_code: 'ID',
      issuing_state: 'D',
      document_number: 'T22000129',
      surname: 'MUSTERMANN',
      given_names: 'ERIKA',
      birth_date: '1964-08-12',
      expiry_date: '2020-10-31',
      sex: 'X',
      check_digits_valid: true,
    });
    expect(alpha2FromMrzState(out!.fields.issuing_state)).toBe('DE');
    expect(documentTypeFromCode(out!.fields.document_code)).toBe('id_card');
    expect(isExpired(out!.fields.expiry_date, NOW)).toBe(true);
  });

  it('marks the MRZ invalid when the package finds a check digit wrong', () => {
    const tampered = [GERMAN_ID[0], GERMAN_ID[1].replace('6408125', '6408126'), GERMAN_ID[2]];
    expect(parsed('TD1', tampered)?.fields.check_digits_valid).toBe(false);
  });

  it('refuses lines that are not an MRZ at all', () => {
    expect(parsed('TD3', ['X'.repeat(44), '?'.repeat(44)])).toBeNull();
  });
});

describe('document codes and state codes', () => {
  it("maps document codes to the contract's document types", () => {
    expect(documentTypeFromCode('P')).toBe('passport');
    expect(documentTypeFromCode('PD')).toBe('passport');
    expect(documentTypeFromCode('I')).toBe('id_card');
    expect(documentTypeFromCode('ID')).toBe('id_card');
    expect(documentTypeFromCode('C')).toBe('id_card');
    expect(documentTypeFromCode('AR')).toBe('residence_permit');
    expect(documentTypeFromCode('IR')).toBe('residence_permit');
    expect(documentTypeFromCode('RP')).toBe('residence_permit');
    expect(documentTypeFromCode('D1')).toBe('driving_licence');
    expect(documentTypeFromCode('V')).toBeNull();
  });

  it('converts ICAO state codes, including its exceptions, to ISO alpha-2', () => {
    expect(alpha2FromMrzState('FRA')).toBe('FR');
    expect(alpha2FromMrzState('D<<')).toBe('DE');
    expect(alpha2FromMrzState('GBD')).toBe('GB');
    expect(alpha2FromMrzState('RKS')).toBe('XK');
    expect(alpha2FromMrzState('UNO')).toBeNull();
    expect(alpha2FromMrzState('XXA')).toBeNull();
  });
});
