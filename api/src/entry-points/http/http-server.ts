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
  // Node checks the header and request deadlines on this interval: a second keeps a cut prompt.
  const server = createServer(
    { connectionsCheckingInterval: 1_000 },
    createHttpApp(ctx, () => shuttingDown),
  );
  server.headersTimeout = config.HTTP_HEADERS_TIMEOUT_SECONDS * 1000;
  server.requestTimeout = config.HTTP_REQUEST_TIMEOUT_SECONDS * 1000;
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
