import type { ChipVerification } from './chip-verification';
import { documentChipCheck } from './document-chip-check';

const verified: ChipVerification = {
  verdict: 'PASS',
  reason: null,
  detail: null,
  evidence: {
    issuing_state: 'MAR',
    document_signer: { subject: 'CN=DS', serial: '01', country: 'MA' },
    csca: { subject: 'CN=CSCA' },
    hash_algorithm: 'SHA-256',
    signature_algorithm: 'RSASSA-PSS',
    data_groups_verified: [1, 2],
    active_authentication: 'PASSED',
    chip_authentication: 'NOT_PRESENT',
  },
  mrz: {
    lines: [],
    document_number: 'EL9157721',
    birth_date: '581221',
    expiry_date: '320109',
    surname: 'OESTERGAARD',
    given_names: 'TOMAS',
    issuing_state: 'MAR',
  },
  portrait: null,
};
const altered: ChipVerification = { ...verified, verdict: 'FAIL', reason: 'CHIP_DATA_ALTERED' };
const cloned: ChipVerification = { ...verified, verdict: 'FAIL', reason: 'CHIP_CLONE_SUSPECTED' };

describe('the document_chip check', () => {
  it('passes a verified chip whose DG1 agrees with the page', () => {
    expect(documentChipCheck('optional', verified, [])).toEqual({ status: 'PASS', reason: null });
    expect(documentChipCheck('required', verified, [])).toEqual({ status: 'PASS', reason: null });
  });

  it('is not performed without a chip when the chip is optional', () => {
    expect(documentChipCheck('optional', null, [])).toEqual({ status: 'NOT_PERFORMED', reason: null });
  });

  it('fails as CHIP_REQUIRED without a chip when the chip is required', () => {
    expect(documentChipCheck('required', null, [])).toEqual({ status: 'FAIL', reason: 'CHIP_REQUIRED' });
  });

  it('ignores any chip, good or bad, when the session turned it off', () => {
    expect(documentChipCheck('off', verified, [])).toEqual({ status: 'NOT_PERFORMED', reason: null });
    expect(documentChipCheck('off', altered, ['document_number'])).toEqual({ status: 'NOT_PERFORMED', reason: null });
  });

  it("fails with the verifier's own reason, before any MRZ disagreement", () => {
    expect(documentChipCheck('optional', altered, ['document_number'])).toEqual({
      status: 'FAIL',
      reason: 'CHIP_DATA_ALTERED',
    });
    expect(documentChipCheck('optional', cloned, [])).toEqual({ status: 'FAIL', reason: 'CHIP_CLONE_SUSPECTED' });
  });

  it('fails a verified chip as CHIP_MRZ_MISMATCH when DG1 disagrees with the page', () => {
    expect(documentChipCheck('optional', verified, ['birth_date'])).toEqual({
      status: 'FAIL',
      reason: 'CHIP_MRZ_MISMATCH',
    });
  });
});
