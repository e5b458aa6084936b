import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';

export interface SweepExpiryDeps {
  expiry: { expireAllDue(now: Date): Promise<string[]> };
  clock: Clock;
  logger: Logger;
  endCapture(sessionId: string): Promise<void>;
}

/**
 * The safety net behind the per-session delayed jobs (one lost to a failed enqueue at creation,
 * say): one conditional bulk write expires every open session whose deadline has passed.
 */
export async function sweepExpiry(deps: SweepExpiryDeps): Promise<number> {
  const ids = await deps.expiry.expireAllDue(deps.clock.now());
  for (const id of ids) await deps.endCapture(id);
  const expired = ids.length;
  if (expired > 0) deps.logger.info({ expired }, 'expiry sweep expired sessions its delayed jobs had not');
  return expired;
}
