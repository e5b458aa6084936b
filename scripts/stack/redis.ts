import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startProcess, waitFor, ManagedProcess } from './child-process';
import { freePort } from './free-port';

/**
 * Debian's redis-server on loopback. noeviction: BullMQ must never lose a job to memory pressure.
 * The append-only file makes a restart keep queued deliveries, as a production Redis would.
 */
export async function startRedis(
  dataDir: string,
  port?: number,
): Promise<{ url: string; port: number; process: ManagedProcess }> {
  mkdirSync(dataDir, { recursive: true });
  const listenPort = port ?? (await freePort());
  const bin = execFileSync('bash', ['-c', 'command -v redis-server || ls /usr/bin/redis-server'], {
    encoding: 'utf8',
  }).trim();
  const proc = startProcess(
    'redis',
    bin,
    [
      '--port',
      String(listenPort),
      '--bind',
      '127.0.0.1',
      '--dir',
      dataDir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
      '--logfile',
      path.join(dataDir, 'redis.log'),
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${listenPort}`;
  await waitFor(
    'redis',
    async () => {
      const client = new Redis(url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => undefined); // refused connections are expected until it is up
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } finally {
        client.disconnect();
      }
    },
    15_000,
    proc.child,
  );
  return { url, port: listenPort, process: proc };
}
