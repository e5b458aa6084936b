export const SESSION_STATUSES = ['PENDING', 'IN_PROGRESS', 'VERIFIED', 'FAILED', 'EXPIRED'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const OPEN_STATUSES: SessionStatus[] = ['PENDING', 'IN_PROGRESS'];
export const DECIDED_STATUSES: SessionStatus[] = ['VERIFIED', 'FAILED'];

/** contract.md's order of precedence when several checks fail. */
export const FAILURE_REASONS = [
  'CANCELLED_BY_API',
  'CAPTURE_REUSED',
  'CAPTURE_TAMPERED',
  'DOCUMENT_UNREADABLE',
  'DOCUMENT_INVALID',
  'DOCUMENT_EXPIRED',
  'CHIP_SIGNATURE_INVALID',
  'CHIP_DATA_ALTERED',
  'CHIP_ISSUER_UNTRUSTED',
  'CHIP_CERTIFICATE_INVALID',
  'CHIP_CLONE_SUSPECTED',
  'CHIP_MRZ_MISMATCH',
  'CHIP_PORTRAIT_MISMATCH',
  'CHIP_REQUIRED',
  'NAME_MISMATCH',
  'DOB_MISMATCH',
  'ADDRESS_MISMATCH',
  'FACE_NOT_DETECTED',
  'LIVENESS_FAILED',
  'SPOOF_DETECTED',
  'FACE_MATCH_BELOW_THRESHOLD',
  'KNOWN_FACE',
  'SANCTIONS_MATCH',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export type CheckVerdict = 'PASS' | 'FAIL' | 'SKIPPED';
export type SanctionsVerdict = 'CLEAR' | 'MATCH' | 'SKIPPED';
export type ChipCheckVerdict = 'PASS' | 'FAIL' | 'NOT_PERFORMED';

export interface Checks {
  document: CheckVerdict;
  liveness: CheckVerdict;
  antispoof: CheckVerdict;
  face_match: CheckVerdict;
  /** Written on every decision since the chip routes; absent on sessions decided before them. */
  document_chip?: ChipCheckVerdict;
  sanctions?: SanctionsVerdict;
}

export interface Address {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
}

export const DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence', 'residence_permit'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface Person {
  name: string;
  dob: string;
  document_type: DocumentType;
  document_country: string;
  document_jurisdiction: string | null;
  address: Address | null;
}
