import type { ChipReason, ChipVerification, DocumentChipMode } from './chip-verification';

export type DocumentChipStatus = 'PASS' | 'FAIL' | 'NOT_PERFORMED';

export interface DocumentChipCheck {
  status: DocumentChipStatus;
  reason: ChipReason | null;
}

/**
 * The `document_chip` check's verdict from the session's mode, the verified chip (null when the
 * capture holds none) and DG1's disagreements with the page's MRZ. The verifier already ranks its
 * own failures (signature, data, issuer, certificate, clone) first, as the contract's precedence
 * does; the MRZ comparison only matters for a chip that verified, and CHIP_REQUIRED only when
 * there is no chip at all. `off` ignores a chip even when one was sent.
 */
export function documentChipCheck(
  mode: DocumentChipMode,
  chip: Pick<ChipVerification, 'verdict' | 'reason'> | null,
  mrzMismatches: readonly string[],
): DocumentChipCheck {
  if (mode === 'off') return { status: 'NOT_PERFORMED', reason: null };
  if (chip === null) {
    return mode === 'required'
      ? { status: 'FAIL', reason: 'CHIP_REQUIRED' }
      : { status: 'NOT_PERFORMED', reason: null };
  }
  if (chip.verdict === 'FAIL') return { status: 'FAIL', reason: chip.reason ?? 'CHIP_SIGNATURE_INVALID' };
  if (mrzMismatches.length > 0) return { status: 'FAIL', reason: 'CHIP_MRZ_MISMATCH' };
  return { status: 'PASS', reason: null };
}
