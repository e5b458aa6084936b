/**
 * The contract's document_type from the MRZ document code (ICAO 9303: P passports; A, C, I identity
 * cards; states use the second letter for residence permits, e.g. AR, IR, RP, CR). Driving
 * licences with an MRZ start with D. Anything else (a visa, V) is not an identity document here.
 */
import type { DocumentType } from '../../task-contracts';

export type { DocumentType };

const RESIDENCE_PERMIT_CODES = new Set(['AR', 'IR', 'CR', 'RP', 'RT']);

export function documentTypeFromCode(code: string): DocumentType | null {
  const c = code.replace(/<+$/, '');
  if (RESIDENCE_PERMIT_CODES.has(c) || c.startsWith('R')) return 'residence_permit';
  if (c.startsWith('P')) return 'passport';
  if (c.startsWith('D')) return 'driving_licence';
  if (/^[ACI]/.test(c)) return 'id_card';
  return null;
}
