import type { DocumentPerson } from '../checks/check-results';
import { namesMatch } from '../decision/name-matching';
import type { ChipMrzFields } from './chip-verification';

/** ISO date (yyyy-mm-dd) as the MRZ writes it (yymmdd). */
const mrzDate = (iso: string): string => iso.replace(/-/g, '').slice(2);
const documentNumber = (value: string): string => value.replace(/[<\s]/g, '').toUpperCase();

/**
 * Which of DG1's fields differ from the MRZ read off the photographed page: a non-empty list is
 * CHIP_MRZ_MISMATCH, a genuine chip presented with another document's page. Field names only, so
 * the list can go into the report without personal data.
 */
export function chipMrzMismatches(chip: ChipMrzFields, page: DocumentPerson): string[] {
  const mismatches: string[] = [];
  if (documentNumber(chip.document_number) !== documentNumber(page.document_number)) mismatches.push('document_number');
  if (chip.birth_date !== mrzDate(page.dob)) mismatches.push('birth_date');
  if (chip.expiry_date !== mrzDate(page.expiry_date)) mismatches.push('expiry_date');
  if (!namesMatch(page.name, `${chip.given_names} ${chip.surname}`)) mismatches.push('name');
  return mismatches;
}
