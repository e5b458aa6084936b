import { gcmOpen, gcmSeal, packBox, unpackBox } from '../shared/aes-gcm';

/**
 * The one format of everything sealed at rest (personal fields, webhook secrets, document reads,
 * captured images): `sv1:<data key id>:` then the AES-256-GCM box (iv ‖ ciphertext ‖ tag), raw for
 * a blob and base64 for a string field. The header is bound into the associated data with where
 * the value is stored, so neither the key id nor the place can be swapped without the open failing.
 */
export const ENVELOPE_PREFIX = 'sv1:';
const HEADER = /^sv1:([A-Za-z0-9_-]{1,64}):/;
const PREFIX_BYTES = Buffer.from(ENVELOPE_PREFIX, 'latin1');

const headerFor = (keyId: string): string => `${ENVELOPE_PREFIX}${keyId}:`;
const aadFor = (header: string, where: string): Buffer => Buffer.from(`${header}${where}`, 'utf8');

export const isEnvelopeText = (stored: string): boolean => stored.startsWith(ENVELOPE_PREFIX);
export const isEnvelopeBytes = (stored: Buffer): boolean =>
  stored.subarray(0, PREFIX_BYTES.length).equals(PREFIX_BYTES);

/** The data key id in an envelope's header (the first 80 bytes are enough to hold it). */
export function envelopeKeyId(stored: string | Buffer): string {
  const head = typeof stored === 'string' ? stored.slice(0, 80) : stored.subarray(0, 80).toString('latin1');
  const match = HEADER.exec(head);
  if (!match) throw new Error('sealed value has no sv1 header');
  return match[1];
}

export function sealEnvelopeBytes(key: Buffer, keyId: string, where: string, plaintext: Buffer): Buffer {
  const header = headerFor(keyId);
  return Buffer.concat([Buffer.from(header, 'latin1'), packBox(gcmSeal(key, plaintext, aadFor(header, where)))]);
}

export function openEnvelopeBytes(key: Buffer, where: string, stored: Buffer): Buffer {
  const header = headerFor(envelopeKeyId(stored));
  return gcmOpen(key, unpackBox(stored.subarray(header.length)), aadFor(header, where));
}

export function sealEnvelopeText(key: Buffer, keyId: string, where: string, plaintext: string): string {
  const header = headerFor(keyId);
  return `${header}${packBox(gcmSeal(key, Buffer.from(plaintext, 'utf8'), aadFor(header, where))).toString('base64')}`;
}

export function openEnvelopeText(key: Buffer, where: string, stored: string): string {
  const header = headerFor(envelopeKeyId(stored));
  return gcmOpen(key, unpackBox(Buffer.from(stored.slice(header.length), 'base64')), aadFor(header, where)).toString(
    'utf8',
  );
}
