/** One master key: its id is stored beside every data key it seals, so the right one opens it. */
export interface MasterKey {
  id: string;
  key: Buffer;
}

/** The master keys a deployment holds: the first seals, every one of them opens (rotation). */
export interface MasterKeyRing {
  active: MasterKey;
  byId: Map<string, MasterKey>;
}

const ENTRY = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/=]+)$/;

/** Why `PII_MASTER_KEYS` is unusable, or null when it is fine (the config schema reports it by name). */
export function masterKeysProblem(value: string): string | null {
  const entries = value.split(',').map((e) => e.trim());
  const ids = new Set<string>();
  for (const entry of entries) {
    const match = ENTRY.exec(entry);
    if (!match) return 'must be <id>:<base64 key>[,<id>:<base64 key>…] (ids of letters, digits, _ or -)';
    if (Buffer.from(match[2], 'base64').length !== 32)
      return `key ${match[1]} must be 32 bytes, base64-encoded (openssl rand -base64 32)`;
    if (ids.has(match[1])) return `key id ${match[1]} appears twice`;
    ids.add(match[1]);
  }
  return null;
}

/** `PII_MASTER_KEYS`, already validated: "<id>:<base64>", newest (the sealing one) first. */
export function parseMasterKeys(value: string): MasterKeyRing {
  const keys = value.split(',').map((entry) => {
    const [id, key] = entry.trim().split(':') as [string, string];
    return { id, key: Buffer.from(key, 'base64') };
  });
  return { active: keys[0], byId: new Map(keys.map((k) => [k.id, k])) };
}
