import { Checks, FailureReason, SanctionsVerdict } from '../../session-status';

/** Which check a failure reason blames, and which later checks could not run because of it. */
const BLAME: Record<
  Exclude<FailureReason, 'CANCELLED_BY_API'>,
  { fail: keyof Checks; skip: Array<'antispoof' | 'face_match'> }
> = {
  CAPTURE_REUSED: { fail: 'liveness', skip: [] },
  CAPTURE_TAMPERED: { fail: 'liveness', skip: [] },
  DOCUMENT_UNREADABLE: { fail: 'document', skip: ['face_match'] },
  DOCUMENT_INVALID: { fail: 'document', skip: [] },
  DOCUMENT_EXPIRED: { fail: 'document', skip: [] },
  CHIP_SIGNATURE_INVALID: { fail: 'document_chip', skip: [] },
  CHIP_DATA_ALTERED: { fail: 'document_chip', skip: [] },
  CHIP_ISSUER_UNTRUSTED: { fail: 'document_chip', skip: [] },
  CHIP_CERTIFICATE_INVALID: { fail: 'document_chip', skip: [] },
  CHIP_CLONE_SUSPECTED: { fail: 'document_chip', skip: [] },
  CHIP_MRZ_MISMATCH: { fail: 'document_chip', skip: [] },
  CHIP_PORTRAIT_MISMATCH: { fail: 'document_chip', skip: [] },
  CHIP_REQUIRED: { fail: 'document_chip', skip: [] },
  NAME_MISMATCH: { fail: 'document', skip: [] },
  DOB_MISMATCH: { fail: 'document', skip: [] },
  ADDRESS_MISMATCH: { fail: 'document', skip: [] },
  FACE_NOT_DETECTED: { fail: 'liveness', skip: ['antispoof', 'face_match'] },
  LIVENESS_FAILED: { fail: 'liveness', skip: [] },
  SPOOF_DETECTED: { fail: 'antispoof', skip: [] },
  FACE_MATCH_BELOW_THRESHOLD: { fail: 'face_match', skip: [] },
  KNOWN_FACE: { fail: 'face_match', skip: [] },
  SANCTIONS_MATCH: { fail: 'sanctions', skip: [] },
};

/** `sanctions` is the real screening's verdict for watchlist accounts, null for the others. */
export function simulatedChecks(reason: FailureReason | null, sanctions: SanctionsVerdict | null): Checks {
  // A simulated applicant presents no chip unless the simulated failure is the chip's.
  const checks: Checks = {
    document: 'PASS',
    liveness: 'PASS',
    antispoof: 'PASS',
    face_match: 'PASS',
    document_chip: 'NOT_PERFORMED',
  };
  if (sanctions) checks.sanctions = sanctions;
  if (!reason || reason === 'CANCELLED_BY_API') return checks;
  const blame = BLAME[reason];
  for (const skipped of blame.skip) checks[skipped] = 'SKIPPED';
  if (blame.fail === 'sanctions') checks.sanctions = 'MATCH';
  else checks[blame.fail] = 'FAIL';
  return checks;
}
