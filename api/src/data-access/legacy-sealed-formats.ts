import { createHash } from 'node:crypto';
import { gcmOpen, unpackBox } from '../shared/aes-gcm';

/**
 * The formats written before every kind shared the vault's envelope. They are only ever opened
 * (reads keep working until `npm run admin -- keys reseal` has rewritten them), never written:
 *  - `pii1:<data key id>:<base64 box>`: personal fields, under the vault's data keys, `where` as AAD;
 *  - `v1.<iv>.<tag>.<body>`: webhook secrets (SECRET_ENCRYPTION_KEY) and document reads
 *    (CAPTURE_ENCRYPTION_KEY), under SHA-256 of the key text, no AAD;
 *  - `BVC1` ‖ box: captured images under CAPTURE_ENCRYPTION_KEY (base64 of 32 bytes), the session id as AAD.
 */
export interface LegacyKeys {
  /** Key texts the old `v1.` secret box was built from, tried in turn. */
  secretBoxKeys: string[];
  /** The old capture image key, or null where none was configured. */
  captureKey: Buffer | null;
}

export const NO_LEGACY_KEYS: LegacyKeys = { secretBoxKeys: [], captureKey: null };

const PII1 = 'pii1:';
const BVC1 = Buffer.from('BVC1');

export const isPii1 = (stored: string): boolean => stored.startsWith(PII1);
export const isSecretBoxV1 = (stored: string): boolean =>
  /^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]*$/.test(stored);
export const isBvc1 = (stored: Buffer): boolean => stored.subarray(0, 4).equals(BVC1);

/** The data key id and the box of a `pii1:` value. */
export function splitPii1(stored: string): { keyId: string; packed: Buffer } {
  const [keyId, packed] = stored.slice(PII1.length).split(':') as [string, string];
  return { keyId, packed: Buffer.from(packed, 'base64') };
}

export function openSecretBoxV1(keys: LegacyKeys, stored: string): string {
  const [, iv, tag, body] = stored.split('.') as [string, string, string, string];
  const box = {
    iv: Buffer.from(iv, 'base64'),
    tag: Buffer.from(tag, 'base64'),
    body: Buffer.from(body, 'base64'),
  };
  for (const keyText of keys.secretBoxKeys) {
    try {
      return gcmOpen(createHash('sha256').update(keyText, 'utf8').digest(), box).toString('utf8');
    } catch {
      // Another of the old keys sealed it (secrets and document reads had one each).
    }
  }
  throw new Error(
    'a v1 sealed value opens with none of the legacy keys (SECRET_ENCRYPTION_KEY, CAPTURE_ENCRYPTION_KEY)',
  );
}

export function openBvc1(keys: LegacyKeys, where: string, stored: Buffer): Buffer {
  if (!keys.captureKey) throw new Error('a BVC1 capture blob needs CAPTURE_ENCRYPTION_KEY to open');
  return gcmOpen(keys.captureKey, unpackBox(stored.subarray(BVC1.length)), Buffer.from(where, 'utf8'));
}
