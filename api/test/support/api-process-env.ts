import { AppConfig } from '../../src/config/env';

/** The environment for API processes spawned beside a TestApi: same store, Redis and prefix, their own port. */
export function apiProcessEnv(config: AppConfig): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(config))
    if (name !== 'PORT' && name !== 'PUBLIC_BASE_URL' && value !== undefined) env[name] = String(value);
  return { ...env, NODE_ENV: 'test', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
}
