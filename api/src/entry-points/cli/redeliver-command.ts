import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AdminStores } from '../../compose-stores';
import { JobQueueRepository } from '../../data-access/job-queue.repository';
import { connectRedis } from '../../data-access/redis-connection';
import { sessionModel } from '../../data-access/session.model';
import { WebhookOutboxRepository } from '../../data-access/webhook-outbox.repository';
import { redeliverSession } from '../../domain/usecases/redeliver/redeliver.usecase';
import type { Redis } from 'ioredis';
import type { WebhookDeliveryQueue } from '../../domain/ports/webhook-queue';
import { AppError } from '../../shared/app-error';
import { createLogger } from '../../shared/logger';
import { SESSION_ID_PATTERN } from '../../shared/random-id';

const STACK_ENV = path.resolve(__dirname, '../../../../.state/stack/env.json');

/** REDIS_URL / REDIS_PREFIX from the environment, else from the local stack's env.json, else none. */
function queueAddress(): { url: string; prefix: string } | null {
  const local = existsSync(STACK_ENV) ? (JSON.parse(readFileSync(STACK_ENV, 'utf8')) as Record<string, string>) : {};
  const url = process.env.REDIS_URL ?? local.REDIS_URL;
  return url ? { url, prefix: process.env.REDIS_PREFIX ?? local.REDIS_PREFIX ?? 'bv' } : null;
}

/**
 * `npm run admin -- sessions redeliver --session <id>`: sends a decided session's result again.
 * The store is marked first; with no Redis address (or Redis down) the workers' outbox sweep
 * sends it on its next run, and the output says so.
 */
export async function redeliverCommand(
  args: string[],
  stores: Pick<AdminStores, 'mongo' | 'requireVault'>,
): Promise<unknown> {
  const { values } = parseArgs({ args, options: { session: { type: 'string' } } });
  if (!values.session || !SESSION_ID_PATTERN.test(values.session))
    throw new AppError('VALIDATION_ERROR', '--session <session_id> is required');
  // The stored result is sealed at rest: without PII_MASTER_KEYS this stops here, before Redis is touched.
  const vault = stores.requireVault();
  const address = queueAddress();
  // Redis is connected only once there is a delivery to enqueue: closing BullMQ queues on a
  // connection still being made rejects promises nobody awaits ("Connection is closed."), which
  // crashed a refused command with exit code 1 instead of its 65.
  const opened: { redis?: Redis; queue?: JobQueueRepository } = {};
  const lazyQueue: WebhookDeliveryQueue = {
    enqueueDelivery: (...delivery) => {
      if (!address) return Promise.reject(new Error('REDIS_URL is not set'));
      opened.redis ??= connectRedis(address.url);
      opened.queue ??= new JobQueueRepository(opened.redis, address.prefix);
      return opened.queue.enqueueDelivery(...delivery);
    },
  };
  try {
    const outbox = new WebhookOutboxRepository(sessionModel(stores.mongo), vault);
    const result = await redeliverSession({ outbox, queue: lazyQueue, logger: createLogger('silent') }, values.session);
    return result.enqueued
      ? result
      : { ...result, note: "not enqueued now; the workers' outbox sweep will send it on its next run" };
  } finally {
    await opened.queue?.close();
    opened.redis?.disconnect();
  }
}
