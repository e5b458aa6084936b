/** The chips `npm run testdata:chip` writes: valid ones in several algorithm mixes, then one per failure. */
import type { AaRsaHash } from './chip-simulator';
import type { ImageType } from './lds-files';
import type { HashName } from './test-pki';

export type ChipCase =
  | 'valid'
  | 'altered-data-group'
  | 'untrusted-csca'
  | 'expired-document-signer'
  | 'revoked-document-signer'
  | 'bad-sod-signature'
  | 'cloned-without-aa-key'
  | 'reused-challenge'
  | 'dg1-from-other-document'
  | 'dg2-other-person'
  | 'malformed-sod';

export interface ChipPlan {
  case: ChipCase;
  sodSigner: 'rsa-pkcs1' | 'rsa-pss' | 'ecdsa';
  ldsHash: HashName;
  portrait: ImageType;
  /** The chip's AA key, or none (no DG15: passive authentication only). */
  aa: { type: 'rsa'; hash: AaRsaHash } | { type: 'ec'; curve: 'brainpoolP256r1' | 'prime256v1' } | null;
  /** What the capture API must answer: the PUT status, then the check's result and reason. */
  expected: { put_status: 200 | 422; document_chip: 'PASS' | 'FAIL' | null; reason: string | null };
}

const PASS = { put_status: 200, document_chip: 'PASS', reason: null } as const;
const fail = (reason: string): ChipPlan['expected'] => ({ put_status: 200, document_chip: 'FAIL', reason });

export const CHIP_PLANS: ChipPlan[] = [
  {
    case: 'valid',
    sodSigner: 'rsa-pkcs1',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: { type: 'rsa', hash: 'sha1' },
    expected: PASS,
  },
  {
    case: 'valid',
    sodSigner: 'ecdsa',
    ldsHash: 'sha256',
    portrait: 'jpeg2000',
    aa: { type: 'ec', curve: 'brainpoolP256r1' },
    expected: PASS,
  },
  {
    case: 'valid',
    sodSigner: 'rsa-pss',
    ldsHash: 'sha384',
    portrait: 'jpeg2000',
    aa: { type: 'rsa', hash: 'sha256' },
    expected: PASS,
  },
  { case: 'valid', sodSigner: 'ecdsa', ldsHash: 'sha1', portrait: 'jpeg', aa: null, expected: PASS },
  {
    case: 'valid',
    sodSigner: 'rsa-pkcs1',
    ldsHash: 'sha512',
    portrait: 'jpeg',
    aa: { type: 'ec', curve: 'prime256v1' },
    expected: PASS,
  },
  {
    case: 'valid',
    sodSigner: 'ecdsa',
    ldsHash: 'sha224',
    portrait: 'jpeg2000',
    aa: { type: 'rsa', hash: 'sha1' },
    expected: PASS,
  },
  {
    case: 'altered-data-group',
    sodSigner: 'ecdsa',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: null,
    expected: fail('CHIP_DATA_ALTERED'),
  },
  {
    case: 'untrusted-csca',
    sodSigner: 'rsa-pkcs1',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: null,
    expected: fail('CHIP_ISSUER_UNTRUSTED'),
  },
  {
    case: 'expired-document-signer',
    sodSigner: 'ecdsa',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: null,
    expected: fail('CHIP_CERTIFICATE_INVALID'),
  },
  {
    case: 'revoked-document-signer',
    sodSigner: 'rsa-pkcs1',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: null,
    expected: fail('CHIP_CERTIFICATE_INVALID'),
  },
  {
    case: 'bad-sod-signature',
    sodSigner: 'ecdsa',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: null,
    expected: fail('CHIP_SIGNATURE_INVALID'),
  },
  {
    case: 'cloned-without-aa-key',
    sodSigner: 'rsa-pkcs1',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: { type: 'rsa', hash: 'sha1' },
    expected: fail('CHIP_CLONE_SUSPECTED'),
  },
  {
    case: 'reused-challenge',
    sodSigner: 'ecdsa',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: { type: 'ec', curve: 'brainpoolP256r1' },
    expected: fail('CHIP_CLONE_SUSPECTED'),
  },
  {
    case: 'dg1-from-other-document',
    sodSigner: 'rsa-pkcs1',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: null,
    expected: fail('CHIP_MRZ_MISMATCH'),
  },
  {
    case: 'dg2-other-person',
    sodSigner: 'ecdsa',
    ldsHash: 'sha256',
    portrait: 'jpeg2000',
    aa: null,
    expected: fail('CHIP_PORTRAIT_MISMATCH'),
  },
  {
    case: 'malformed-sod',
    sodSigner: 'rsa-pkcs1',
    ldsHash: 'sha256',
    portrait: 'jpeg',
    aa: null,
    expected: { put_status: 422, document_chip: null, reason: null },
  },
];
