/**
 * The transport floor measured without the service: the serialised ModelInfer request sent to a
 * grpc-js echo in its own process (grpc-echo-server.ts), which answers with the same bytes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { credentials, makeGenericClientConstructor, type Client } from '@grpc/grpc-js';
import { clientMessageOptions } from '../../inference/src/client/message-limits';
import { median } from '../../scripts/test-support/percentiles';
import { round } from './bare-ort';
import { echoService } from './grpc-echo-server';

type EchoClient = Client & { echo(request: Buffer, callback: (error: Error | null, reply?: Buffer) => void): void };

export interface GrpcEcho {
  /** p50 ms of echoing `payload`, back to back for `durationMs` (at least 5), each after `idleMs`. */
  p50(payload: Buffer, durationMs: number, idleMs?: number): Promise<number>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startGrpcEcho(): Promise<GrpcEcho> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'grpc-echo-server.ts')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = Number(chunk.toString().trim());
  const Echo = makeGenericClientConstructor(echoService, 'Echo');
  const client = new Echo(
    `127.0.0.1:${port}`,
    credentials.createInsecure(),
    clientMessageOptions,
  ) as unknown as EchoClient;
  const echo = (payload: Buffer) =>
    new Promise<void>((resolve, reject) => client.echo(payload, (error) => (error ? reject(error) : resolve())));
  return {
    async p50(payload, durationMs, idleMs = 0) {
      for (let i = 0; i < 3; i++) await echo(payload);
      const latencies: number[] = [];
      const stopAt = performance.now() + durationMs;
      while (performance.now() < stopAt || latencies.length < 5) {
        if (idleMs > 0) await sleep(idleMs);
        const t = performance.now();
        await echo(payload);
        latencies.push(performance.now() - t);
      }
      return round(median(latencies) ?? NaN, 2);
    },
    async close() {
      client.close();
      child.kill();
      await once(child, 'exit').catch(() => undefined);
    },
  };
}
