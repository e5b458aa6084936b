/**
 * Active authentication (ICAO 9303-11 §6.1): the chip signs the server's challenge with the private
 * key matching DG15. RSA keys answer with ISO/IEC 9796-2 digital signature scheme 1 (message
 * recovery: the challenge is the non-recoverable part M2), EC keys with plain ECDSA (r || s) using
 * the hash DG14's ActiveAuthenticationInfo names.
 */
import { constants, createHash, publicDecrypt, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { ECDSA_HASHES } from './signatures';

/** ISO/IEC 10118-3 hash identifiers in the two-byte trailer (xx CC); 0xBC alone means SHA-1. */
const TRAILER_HASHES: Record<number, string> = {
  0x33: 'sha1',
  0x34: 'sha256',
  0x35: 'sha512',
  0x36: 'sha384',
  0x38: 'sha224',
};

function verifyIso9796Scheme1(key: KeyObject, challenge: Buffer, signature: Buffer): boolean {
  const k = Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
  if (signature.length !== k) return false;
  let representative: Buffer;
  try {
    representative = publicDecrypt({ key, padding: constants.RSA_NO_PADDING }, signature);
  } catch {
    return false;
  }
  // Header: "01" then 1 (partial recovery), padding nibble 0xA: the first byte is 0x6A.
  if (representative[0] !== 0x6a) return false;
  let hash: string | undefined;
  let trailerLength: number;
  if (representative[k - 1] === 0xbc) {
    hash = 'sha1';
    trailerLength = 1;
  } else if (representative[k - 1] === 0xcc) {
    hash = TRAILER_HASHES[representative[k - 2]];
    trailerLength = 2;
  } else return false;
  if (!hash) return false;
  const hashLength = createHash(hash).digest().length;
  const recoverable = representative.subarray(1, k - trailerLength - hashLength);
  const embedded = representative.subarray(k - trailerLength - hashLength, k - trailerLength);
  const expected = createHash(hash).update(recoverable).update(challenge).digest();
  return recoverable.length > 0 && timingSafeEqual(embedded, expected);
}

/** Whether `signature` is the DG15 key's answer to `challenge`. */
export function verifyActiveAuthentication(
  key: KeyObject,
  challenge: Buffer,
  signature: Buffer,
  dg14SignatureAlgorithm: string | null,
): boolean {
  if (key.asymmetricKeyType === 'rsa') return verifyIso9796Scheme1(key, challenge, signature);
  if (key.asymmetricKeyType !== 'ec') return false;
  // 9303-11 says DG14 names the hash; without it, SHA-256 is what EC AA chips use in practice.
  const hash = (dg14SignatureAlgorithm && ECDSA_HASHES[dg14SignatureAlgorithm]) || 'sha256';
  try {
    return verify(hash, challenge, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}
