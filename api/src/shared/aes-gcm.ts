import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** One AES-256-GCM box: a fresh 96-bit IV, the ciphertext and the 128-bit tag. */
export interface GcmBox {
  iv: Buffer;
  body: Buffer;
  tag: Buffer;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The service's one AES-256-GCM primitive (webhook secrets, captured images, personal fields and
 * their data keys all go through it). `aad` binds the ciphertext to where it is stored, so a
 * value copied onto another record fails to open instead of passing as that record's.
 */
export function gcmSeal(key: Buffer, plaintext: Buffer, aad?: Buffer): GcmBox {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, body, tag: cipher.getAuthTag() };
}

export function gcmOpen(key: Buffer, box: GcmBox, aad?: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, box.iv);
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(box.tag);
  return Buffer.concat([decipher.update(box.body), decipher.final()]);
}

/** iv ‖ body ‖ tag, the compact form stored as one base64 string or one blob. */
export const packBox = (box: GcmBox): Buffer => Buffer.concat([box.iv, box.body, box.tag]);

export function unpackBox(packed: Buffer): GcmBox {
  if (packed.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value is too short');
  return {
    iv: packed.subarray(0, IV_BYTES),
    body: packed.subarray(IV_BYTES, packed.length - TAG_BYTES),
    tag: packed.subarray(packed.length - TAG_BYTES),
  };
}
