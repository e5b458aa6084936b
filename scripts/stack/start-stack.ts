import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startProcess, waitFor } from './child-process';
import { ensureDemoAccount } from './demo-account';
import { startFerretDb } from './ferretdb';
import { freePort } from './free-port';
import { startRedis } from './redis';
import { Supervised } from './supervise';
import { startWidgetDemo, WidgetDemo } from '../../hosted/demo/widget-demo-server';
import { FRONT_NODE_FLAGS } from '../../inference/src/config/front-node-flags';
import { SERVICE_NODE_FLAGS } from '../../api/src/config/service-node-flags';

const ROOT = path.resolve(__dirname, '../..');
const STATE = path.join(ROOT, '.state', 'stack');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/** A secret that survives restarts of the local stack (webhook secrets are sealed with it). */
function persistentSecret(name = 'secret-encryption-key'): string {
  const file = path.join(STATE, name);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** The demo account's sandbox key, when this machine issued one (see demo-account.ts). */
function demoSandboxKey(): string | undefined {
  const file = path.join(ROOT, '.state', 'demo-account.json');
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { sandbox_api_key: string }).sandbox_api_key
    : undefined;
}

/**
 * The local stack: FerretDB and Redis (unless MONGODB_URI / REDIS_URL are set), the inference
 * service, the API and one worker, each its own process as in production. A process that dies is
 * logged and restarted with a backoff (scripts/stack/supervise.ts); only Ctrl-C or SIGTERM stops
 * the stack.
 */
async function main(): Promise<void> {
  mkdirSync(STATE, { recursive: true });
  const running: Supervised[] = [];
  let demo: WidgetDemo | null = null;
  let stopping: Promise<void> | null = null;
  const stopAll = () => {
    stopping ??= (async () => {
      await demo?.stop();
      for (const proc of running.reverse()) await proc.stop();
    })();
    return stopping;
  };
  process.on('SIGINT', () => void stopAll().then(() => process.exit(0)));
  process.on('SIGTERM', () => void stopAll().then(() => process.exit(0)));
  try {
    let mongoUri = process.env.MONGODB_URI;
    if (!mongoUri) {
      // Restarted on the same port, so the others reconnect to it.
      const ferretPort = await freePort();
      running.push(
        await Supervised.start(
          'ferretdb',
          async () => (await startFerretDb(path.join(STATE, 'ferretdb'), ferretPort)).process,
        ),
      );
      mongoUri = `mongodb://127.0.0.1:${ferretPort}/bioverify`;
    }
    let redisUrl = process.env.REDIS_URL;
    if (!redisUrl) {
      const redisPort = await freePort();
      running.push(
        await Supervised.start('redis', async () => (await startRedis(path.join(STATE, 'redis'), redisPort)).process),
      );
      redisUrl = `redis://127.0.0.1:${redisPort}`;
    }
    const port = Number(process.env.PORT ?? 8080);
    const baseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      MONGODB_URI: mongoUri,
      REDIS_URL: redisUrl,
      SECRET_ENCRYPTION_KEY: process.env.SECRET_ENCRYPTION_KEY ?? persistentSecret(),
      // Captured images are encrypted at rest under this key (kept beside the other, never committed).
      CAPTURE_ENCRYPTION_KEY: process.env.CAPTURE_ENCRYPTION_KEY ?? persistentSecret('capture-encryption-key'),
      // Personal data at rest: data keys sealed by this master key (id "local"; see api/README, rotation).
      PII_MASTER_KEYS: process.env.PII_MASTER_KEYS ?? `local:${persistentSecret('pii-master-key')}`,
      // Local receivers live on loopback; the API logs a warning that this is on.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true',
    };
    const inferenceMain = path.join(ROOT, 'inference/src/main.ts');
    if (existsSync(inferenceMain) && !process.env.INFERENCE_URL) {
      const inferencePort = await freePort();
      env.INFERENCE_PORT = String(inferencePort);
      env.INFERENCE_METRICS_PORT = String(await freePort());
      env.INFERENCE_URL = `127.0.0.1:${inferencePort}`;
      running.push(
        await Supervised.start('inference', () =>
          startProcess('inference', TSX, [...FRONT_NODE_FLAGS, inferenceMain], { env, cwd: ROOT }),
        ),
      );
    }
    // Lets `npm run admin` reach this stack's store without the caller exporting anything.
    writeFileSync(
      path.join(STATE, 'env.json'),
      JSON.stringify({
        MONGODB_URI: mongoUri,
        SECRET_ENCRYPTION_KEY: env.SECRET_ENCRYPTION_KEY,
        CAPTURE_ENCRYPTION_KEY: env.CAPTURE_ENCRYPTION_KEY,
        PII_MASTER_KEYS: env.PII_MASTER_KEYS,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: env.REDIS_PREFIX ?? 'bv',
      }),
      { mode: 0o600 },
    );
    await ensureDemoAccount(
      mongoUri,
      {
        PII_MASTER_KEYS: env.PII_MASTER_KEYS as string,
        SECRET_ENCRYPTION_KEY: env.SECRET_ENCRYPTION_KEY,
        CAPTURE_ENCRYPTION_KEY: env.CAPTURE_ENCRYPTION_KEY,
      },
      path.join(ROOT, '.state', 'demo-account.json'),
      baseUrl,
    );
    const api = await Supervised.start('api', () =>
      startProcess('api', TSX, [...SERVICE_NODE_FLAGS, path.join(ROOT, 'api/src/entry-points/http/main.ts')], {
        env,
        cwd: ROOT,
      }),
    );
    running.push(api);
    // The worker's health and metrics port (its config default is 8081); the widget demo takes the next one.
    env.WORKER_HEALTH_PORT = process.env.WORKER_HEALTH_PORT ?? String(port + 1);
    const workerMain = path.join(ROOT, 'api/src/entry-points/worker/main.ts');
    if (existsSync(workerMain))
      running.push(
        await Supervised.start('worker', () =>
          startProcess('worker', TSX, [...SERVICE_NODE_FLAGS, workerMain], { env, cwd: ROOT }),
        ),
      );
    await waitFor('api', async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 60_000, api.current.child);
    // Local stack only: an integrator page on another origin (another port) embedding the widget.
    demo = await startWidgetDemo({
      apiBase: baseUrl,
      sandboxKey: demoSandboxKey(),
      port: Number(process.env.WIDGET_DEMO_PORT ?? port + 2),
      host: 'localhost',
    });
    console.log(
      `\nStack up: API ${baseUrl}  ·  reference ${baseUrl}/docs  ·  readiness ${baseUrl}/readyz  ·  widget demo ${demo.url}  (Ctrl-C stops everything)\n`,
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  // Runs until Ctrl-C or SIGTERM: a process that dies meanwhile is restarted by its supervisor.
}

main().catch((error) => {
  console.error(`stack failed: ${(error as Error).message}`);
  process.exit(1);
});
