import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Connection } from 'mongoose';

/** Every file under `dir` whose name starts with `prefix` (FerretDB's SQLite keeps one database per file, plus -wal/-shm). */
export function storeFiles(dir: string, prefix: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...storeFiles(full, prefix));
    else if (name.startsWith(prefix)) out.push(full);
  }
  return out;
}

/** Which of `needles` occur in `haystack`, ignoring case (bytes read as latin1, so UTF-8 ASCII text matches). */
export function found(haystack: string, needles: string[]): string[] {
  const lower = haystack.toLowerCase();
  return needles.filter((n) => lower.includes(n.toLowerCase()));
}

export const fileText = (files: string[]): string => files.map((f) => readFileSync(f).toString('latin1')).join('\n');

/** A Buffer (as its toJSON gives it) or a BSON Binary, as the replacer meets them. */
interface BinaryLike {
  type?: unknown;
  _bsontype?: unknown;
  buffer?: Uint8Array;
  data?: number[];
}

/** Every document of every collection of the database, as text (what a dump of the store would hold). */
export async function storeDump(connection: Connection): Promise<string> {
  const db = connection.db;
  if (!db) throw new Error('not connected');
  const parts: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    for (const doc of await db.collection(name).find({}).toArray())
      parts.push(
        JSON.stringify(doc, (_k, v: unknown) => {
          const binary = v as BinaryLike | null | undefined;
          return binary?.type === 'Buffer' || binary?._bsontype === 'Binary'
            ? Buffer.from(binary.buffer ?? binary.data ?? []).toString('latin1')
            : v;
        }),
      );
  }
  return parts.join('\n');
}

/** Every key and every value in Redis (all prefixes), read by type. */
export async function redisDump(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        parts.push(key);
        if (type === 'string') parts.push((await redis.getBuffer(key))?.toString('latin1') ?? '');
        else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
        else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}
