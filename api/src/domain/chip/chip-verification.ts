/**
 * What verifying a passport chip (ICAO 9303 eMRTD) yields: the `document_chip` check's verdict and
 * reason, the evidence the report shows, and what the decision needs from the chip (its MRZ and
 * portrait). Passive authentication proves the data is what the issuing state signed; active
 * authentication proves the chip holds the private key, so it is not a copy; chip authentication
 * (DG14) is not run by the server and is only reported as what the client asserted.
 */
export const CHIP_REASONS = [
  'CHIP_SIGNATURE_INVALID',
  'CHIP_ISSUER_UNTRUSTED',
  'CHIP_CERTIFICATE_INVALID',
  'CHIP_DATA_ALTERED',
  'CHIP_CLONE_SUSPECTED',
  'CHIP_MRZ_MISMATCH',
  'CHIP_PORTRAIT_MISMATCH',
  'CHIP_REQUIRED',
] as const;
export type ChipReason = (typeof CHIP_REASONS)[number];

export const DOCUMENT_CHIP_MODES = ['off', 'optional', 'required'] as const;
export type DocumentChipMode = (typeof DOCUMENT_CHIP_MODES)[number];

export type ActiveAuthenticationOutcome = 'PASSED' | 'FAILED' | 'NOT_PERFORMED' | 'NOT_SUPPORTED';

export interface ChipEvidence {
  /** DG1's issuing state (ICAO three-letter code). */
  issuing_state: string;
  document_signer: { subject: string; serial: string; country: string } | null;
  csca: { subject: string } | null;
  hash_algorithm: string | null;
  signature_algorithm: string | null;
  data_groups_verified: number[];
  /** NOT_SUPPORTED: the chip has no DG15; NOT_PERFORMED: it has one, and no answer was sent. */
  active_authentication: ActiveAuthenticationOutcome;
  /** The server does not run chip authentication; DG14's presence is what the reader claims. */
  chip_authentication: 'CLIENT_ASSERTED' | 'NOT_PRESENT';
}

/** The MRZ fields of DG1 the decision compares with the photographed page. */
export interface ChipMrzFields {
  lines: string[];
  document_number: string;
  birth_date: string;
  expiry_date: string;
  surname: string;
  given_names: string;
  issuing_state: string;
}

export interface ChipVerification {
  verdict: 'PASS' | 'FAIL';
  reason: ChipReason | null;
  /** Why, in words for the report (no personal data). */
  detail: string | null;
  evidence: ChipEvidence;
  mrz: ChipMrzFields;
  /** DG2's portrait as JPEG, for face match; null when DG2 could not be decoded. */
  portrait: Buffer | null;
}

/** The chip data a capture holds, as the client read it (EF files with their tags). */
export interface ChipFiles {
  sod: Buffer;
  dg1: Buffer;
  dg2: Buffer;
  dg14?: Buffer;
  dg15?: Buffer;
  activeAuthentication?: { challenge: Buffer; signature: Buffer };
}

/** The challenge this session issued, as the capture state recorded it. */
export interface IssuedChallenge {
  challenge: Buffer;
  expiresAt: Date;
  /** Already answered by an earlier submission: a second use is a replay. */
  used: boolean;
}
