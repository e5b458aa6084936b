import { loadConfigOrExit } from '../../config/env';
import { createLogger } from '../../shared/logger';
import { startApi } from './http-server';

/** The API process: validate config, serve, and drain on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.LOG_LEVEL, { process: 'api' });
  const api = await startApi(config, logger);
  logger.info({ port: api.port, public_base_url: config.PUBLIC_BASE_URL }, 'api listening');
  if (config.WEBHOOK_ALLOW_PRIVATE_NETWORKS) {
    logger.warn(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: webhooks may target private and loopback addresses (local use only)',
    );
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    api.stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'unclean shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
}

main().catch((error) => {
  process.stderr.write(`api failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
