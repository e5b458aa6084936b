/**
 * What a chip answers to INTERNAL AUTHENTICATE (ICAO 9303-11 §6.1, active authentication), so
 * tests and the SDKs' simulators can answer the server's challenge with a chip's AA private key:
 * RSA keys sign with ISO/IEC 9796-2 digital signature scheme 1 (partial message recovery), EC keys
 * with plain ECDSA (r || s) over the challenge.
 */
import { constants, createHash, privateEncrypt, randomBytes, sign, type KeyObject } from 'node:crypto';

/** ISO/IEC 10118-3 hash identifiers used in the two-byte trailer; SHA-1 uses the implicit 0xBC. */
const HASH_IDS = { sha224: 0x38, sha256: 0x34, sha384: 0x36, sha512: 0x35 } as const;
export type AaRsaHash = 'sha1' | keyof typeof HASH_IDS;

export function internalAuthenticate(
  aaPrivateKey: KeyObject,
  challenge: Buffer,
  options: { rsaHash?: AaRsaHash; ecHash?: 'sha256' | 'sha384' | 'sha512' } = {},
): Buffer {
  if (aaPrivateKey.asymmetricKeyType === 'ec') {
    return sign(options.ecHash ?? 'sha256', challenge, { key: aaPrivateKey, dsaEncoding: 'ieee-p1363' });
  }
  const hash = options.rsaHash ?? 'sha1';
  const k = (aaPrivateKey.asymmetricKeyDetails!.modulusLength! + 7) >> 3;
  const trailer = hash === 'sha1' ? Buffer.from([0xbc]) : Buffer.from([HASH_IDS[hash], 0xcc]);
  const hashLength = createHash(hash).digest().length;
  // M1 (the recoverable part) is the chip's nonce; the challenge is M2, the non-recoverable part.
  const m1 = randomBytes(k - 1 - hashLength - trailer.length);
  const h = createHash(hash).update(m1).update(challenge).digest();
  const representative = Buffer.concat([Buffer.from([0x6a]), m1, h, trailer]);
  return privateEncrypt({ key: aaPrivateKey, padding: constants.RSA_NO_PADDING }, representative);
}
