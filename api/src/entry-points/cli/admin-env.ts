import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { envSchema } from '../../config/env';

const STACK_ENV = path.resolve(__dirname, '../../../../.state/stack/env.json');

export interface AdminEnv {
  MONGODB_URI: string;
  SECRET_ENCRYPTION_KEY: string;
  PII_MASTER_KEYS?: string;
  CAPTURE_ENCRYPTION_KEY?: string;
  REDIS_URL?: string;
  REDIS_PREFIX?: string;
}

/**
 * The admin CLI needs the store and the secret key, and PII_MASTER_KEYS for commands that seal or
 * open (accounts, keys, sessions redeliver); CAPTURE_ENCRYPTION_KEY only for `keys reseal` to open
 * captures sealed in the old formats; REDIS_URL (and the API's REDIS_PREFIX) for commands that
 * change an existing account or key, which must tell the API processes' caches. Against the local stack it reads what `npm start` wrote;
 * elsewhere MONGODB_URI and SECRET_ENCRYPTION_KEY (and PII_MASTER_KEYS) must be set.
 */
export function adminEnv(): AdminEnv {
  // What `npm start` wrote; the schema below checks it.
  const local =
    !process.env.MONGODB_URI && existsSync(STACK_ENV)
      ? (JSON.parse(readFileSync(STACK_ENV, 'utf8')) as Record<string, unknown>)
      : {};
  const parsed = z
    .object({
      MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//),
      SECRET_ENCRYPTION_KEY: z.string().min(32),
      PII_MASTER_KEYS: envSchema.shape.PII_MASTER_KEYS.optional(),
      CAPTURE_ENCRYPTION_KEY: envSchema.shape.CAPTURE_ENCRYPTION_KEY.optional(),
      REDIS_URL: envSchema.shape.REDIS_URL.optional(),
      REDIS_PREFIX: envSchema.shape.REDIS_PREFIX,
    })
    .safeParse({
      ...local,
      ...pickDefined(process.env, [
        'MONGODB_URI',
        'SECRET_ENCRYPTION_KEY',
        'PII_MASTER_KEYS',
        'CAPTURE_ENCRYPTION_KEY',
        'REDIS_URL',
        'REDIS_PREFIX',
      ]),
    });
  if (!parsed.success) {
    const names = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new Error(`set ${names} (or start the local stack with npm start first)`);
  }
  return parsed.data;
}

function pickDefined(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => env[n]).map((n) => [n, env[n] as string]));
}
