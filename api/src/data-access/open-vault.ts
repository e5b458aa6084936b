import { Connection } from 'mongoose';
import { parseMasterKeys } from '../shared/master-keys';
import { LegacyKeys } from './legacy-sealed-formats';
import { PiiVault } from './pii-vault';

export interface VaultKeys {
  PII_MASTER_KEYS: string;
  /** The keys of the formats written before the one envelope: they only open what is still in them. */
  SECRET_ENCRYPTION_KEY?: string;
  CAPTURE_ENCRYPTION_KEY?: string;
}

export function legacyKeysOf(keys: VaultKeys): LegacyKeys {
  return {
    secretBoxKeys: [keys.SECRET_ENCRYPTION_KEY, keys.CAPTURE_ENCRYPTION_KEY].filter((k): k is string => Boolean(k)),
    captureKey: keys.CAPTURE_ENCRYPTION_KEY ? Buffer.from(keys.CAPTURE_ENCRYPTION_KEY, 'base64') : null,
  };
}

/** The vault every process seals with, opening the old formats with whichever legacy keys it is given. */
export function openVault(connection: Connection, keys: VaultKeys, now?: () => Date): PiiVault {
  return new PiiVault(connection, parseMasterKeys(keys.PII_MASTER_KEYS), now, legacyKeysOf(keys));
}
