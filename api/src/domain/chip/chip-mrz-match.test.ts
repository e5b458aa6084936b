import type { DocumentPerson } from '../checks/check-results';
import { chipMrzMismatches } from './chip-mrz-match';
import type { ChipMrzFields } from './chip-verification';

// A synthetic TD3 holder (the test set's), as DG1 and as the page's MRZ read.
const chip: ChipMrzFields = {
  lines: ['P<MAROESTERGAARD<<TOMAS<<<<<<<<<<<<<<<<<<<<<', 'EL91577215MAR5812211M3201093<<<<<<<<<<<<<<<6'],
  document_number: 'EL9157721',
  birth_date: '581221',
  expiry_date: '320109',
  surname: 'OESTERGAARD',
  given_names: 'TOMAS',
  issuing_state: 'MAR',
};
const page: DocumentPerson = {
  name: 'TOMAS OESTERGAARD',
  dob: '1958-12-21',
  document_type: 'passport',
  document_country: 'MA',
  document_number: 'EL9157721',
  expiry_date: '2032-01-09',
  nationality: 'MAR',
  address: null,
};

describe('the chip MRZ against the page MRZ', () => {
  it('finds nothing to object to when DG1 is the page document', () => {
    expect(chipMrzMismatches(chip, page)).toEqual([]);
  });

  it('accepts the original spelling of a transliterated name (Østergaard → OESTERGAARD)', () => {
    expect(chipMrzMismatches(chip, { ...page, name: 'Tomas Østergaard' })).toEqual([]);
  });

  it('names each field of another document: number, dates and name', () => {
    const other = {
      ...page,
      name: 'ANA SILVA',
      dob: '1958-12-22',
      document_number: 'EL9157722',
      expiry_date: '2033-01-09',
    };
    expect(chipMrzMismatches(chip, other)).toEqual(['document_number', 'birth_date', 'expiry_date', 'name']);
  });
});
