import { Person } from '../../session-status';

/**
 * The identity every simulated sandbox session reads from its "document": the published specimen
 * of the Dutch passport, so sandbox results look real without being anyone's personal data.
 */
export const SANDBOX_SPECIMEN: Person = {
  name: 'Willeke Liselotte De Bruijn',
  dob: '1965-03-10',
  document_type: 'passport',
  document_country: 'NL',
  document_jurisdiction: null,
  address: null,
};

/** Far enough ahead that verified_until is decided by the 365-day rule, as for most real passports. */
export function specimenExpiry(now: Date): string {
  return `${now.getUTCFullYear() + 5}-03-09`;
}
