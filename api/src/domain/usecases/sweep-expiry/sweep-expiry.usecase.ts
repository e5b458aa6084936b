import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { IdempotencyKeys } from '../../ports/idempotency-keys';
import { SessionExpiry } from '../../ports/session-expiry';

export interface SweepExpiryDeps {
  expiry: Pick<SessionExpiry, 'expireAllDue'>;
  idempotency: IdempotencyKeys;
  clock: Clock;
  logger: Logger;
  endCapture(sessionId: string): Promise<void>;
}

/**
 * The safety net behind the per-session delayed jobs (one lost to a failed enqueue at creation,
 * say): one conditional bulk write expires every open session whose deadline has passed. It also
 * drops Idempotency-Keys past their 24 hours (FerretDB has no TTL indexes to do it).
 */
export async function sweepExpiry(deps: SweepExpiryDeps): Promise<number> {
  const now = deps.clock.now();
  await deps.idempotency.purgeExpired(now);
  const ids = await deps.expiry.expireAllDue(now);
  for (const id of ids) await deps.endCapture(id);
  const expired = ids.length;
  if (expired > 0) deps.logger.info({ expired }, 'expiry sweep expired sessions its delayed jobs had not');
  return expired;
}
