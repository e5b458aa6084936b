import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { composeApp } from '../../compose-app';
import { AppConfig } from '../../config/env';
import { Logger } from '../../shared/logger';
import { createHttpApp } from './app';

export interface RunningApi {
  server: Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes clients. */
  stop(): Promise<void>;
}

export async function startApi(config: AppConfig, logger: Logger): Promise<RunningApi> {
  const ctx = await composeApp(config, logger);
  let shuttingDown = false;
  const server = createServer(createHttpApp(ctx, () => shuttingDown));
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(config.PORT, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    async stop() {
      shuttingDown = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS).unref());
      await Promise.race([closed, grace]);
      server.closeAllConnections();
      await ctx.close();
    },
  };
}
