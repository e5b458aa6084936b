import { loadConfigOrExit } from '../../config/env';
import { createLogger } from '../../shared/logger';
import { startWorker } from './worker-runtime';

/** The worker process: deliveries, expiry and the sweeps. Drains on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.LOG_LEVEL, { process: 'worker' });
  const worker = await startWorker(config, logger);
  logger.info({ health_port: worker.healthPort, concurrency: config.WORKER_CONCURRENCY }, 'worker consuming');
  if (config.WEBHOOK_ALLOW_PRIVATE_NETWORKS) {
    logger.warn(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: webhooks may reach private and loopback addresses (local use only)',
    );
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker draining');
    worker.stop().then(
      () => {
        logger.info('worker stopped');
        process.exit(0);
      },
      (error) => {
        logger.error({ err: error }, 'unclean worker shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
}

main().catch((error) => {
  process.stderr.write(`worker failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
