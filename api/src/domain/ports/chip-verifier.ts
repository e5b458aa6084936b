import type { ChipFiles, ChipVerification, IssuedChallenge } from '../chip/chip-verification';

/** Malformed chip data: which field, and why (the capture route answers 422 with it). */
export class ChipFormatError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ChipReceipt {
  data_groups: number[];
  active_authentication: boolean;
}

/**
 * Passive and active authentication of eMRTD chip data against the configured trust anchors.
 * Implemented with pkijs/asn1js and node:crypto in data-access/chip.
 */
export interface ChipVerifier {
  /** Parses without verifying: throws ChipFormatError for malformed TLV or ASN.1. */
  inspect(files: ChipFiles): ChipReceipt;
  verify(
    files: ChipFiles,
    context: { now: Date; challenge: IssuedChallenge | null; trustTestCsca: boolean },
  ): Promise<ChipVerification>;
}
