import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const STACK_ENV = path.resolve(__dirname, '../../../../.state/stack/env.json');

/**
 * The admin CLI needs only the store and the secret key. Against the local stack it reads the
 * addresses `npm start` wrote; elsewhere MONGODB_URI and SECRET_ENCRYPTION_KEY must be set.
 */
export function adminEnv(): { MONGODB_URI: string; SECRET_ENCRYPTION_KEY: string } {
  const local = !process.env.MONGODB_URI && existsSync(STACK_ENV) ? JSON.parse(readFileSync(STACK_ENV, 'utf8')) : {};
  const parsed = z
    .object({ MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//), SECRET_ENCRYPTION_KEY: z.string().min(32) })
    .safeParse({ ...local, ...pickDefined(process.env, ['MONGODB_URI', 'SECRET_ENCRYPTION_KEY']) });
  if (!parsed.success) {
    const names = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new Error(`set ${names} (or start the local stack with npm start first)`);
  }
  return parsed.data;
}

function pickDefined(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => env[n]).map((n) => [n, env[n] as string]));
}
