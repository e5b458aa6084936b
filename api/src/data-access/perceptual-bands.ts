import { createHmac } from 'node:crypto';
import type { PerceptualHash } from './perceptual-hash';

/**
 * Eight bands of 8 bits: two hashes within Hamming distance 7 agree exactly on one band at least
 * (pigeonhole), so looking each band up by `_id` finds every copy within the line.
 */
export const BANDS = 8;
/** The largest distance that still counts as a copy; BANDS - 1 is the most the bands guarantee. */
export const PERCEPTUAL_LINE = 7;

/** The bands' lookup keys: each band's bits with its index and the account, under the key. */
export function bandKeys(key: Buffer, accountId: string, kind: string, hash: PerceptualHash): string[] {
  const bytes = Buffer.from(hash, 'hex');
  return Array.from({ length: BANDS }, (_, band) =>
    createHmac('sha256', key).update(`${accountId}\0${kind}\0${band}\0${bytes[band]}`).digest('base64url'),
  );
}

/**
 * The full hash sealed as nonce ‖ (hash XOR HMAC(key, nonce)): a one-time pad from a PRF, so the
 * stored value says nothing about the image without the key, and comparing needs no vault call per
 * candidate. The nonce is derived from the entry's place (account, session, kind, index), unique
 * per entry, so a retried decision writes the same value again rather than a second one.
 */
export function sealHash(key: Buffer, hash: PerceptualHash, place: string): string {
  const nonce = createHmac('sha256', key).update(`nonce\0${place}`).digest().subarray(0, 12);
  return Buffer.concat([nonce, xor(Buffer.from(hash, 'hex'), pad(key, nonce))]).toString('base64url');
}

export function openHash(key: Buffer, sealed: string): PerceptualHash {
  const bytes = Buffer.from(sealed, 'base64url');
  return xor(bytes.subarray(12), pad(key, bytes.subarray(0, 12))).toString('hex');
}

function pad(key: Buffer, nonce: Buffer): Buffer {
  return createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from('pad\0'), nonce]))
    .digest()
    .subarray(0, 8);
}

function xor(a: Buffer, b: Buffer): Buffer {
  return Buffer.from(a.map((byte, i) => byte ^ b[i]));
}
