import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { RetentionOverrides } from '../../ports/account-store';
import { RetentionCandidates } from '../../ports/session-sweeps';

const DAY_MS = 24 * 60 * 60 * 1000;
const PAGE = 200;

export interface SweepRetentionDeps {
  sessions: RetentionCandidates;
  accounts: RetentionOverrides;
  /** PII_RETENTION_DAYS; undefined keeps personal data of accounts without an override. */
  defaultDays: number | undefined;
  clock: Clock;
  logger: Logger;
  redact(sessionId: string): Promise<unknown>;
}

/**
 * Retention: sessions that ended (decided, cancelled or expired) longer ago than their account's
 * retention, or the deployment's PII_RETENTION_DAYS, are redacted, a bounded page per account
 * group per run. Captured images follow CAPTURE_RETENTION_HOURS on their own (capture sweep).
 * Redactions cut short (by anyone, whatever the retention) are finished first.
 */
export async function sweepRetention(deps: SweepRetentionDeps): Promise<{ redacted: number }> {
  const now = deps.clock.now().getTime();
  const overrides = await deps.accounts.retentionOverrides();
  const due = await deps.sessions.unfinishedRedactions(PAGE, new Date(now));
  for (const { accountId, days } of overrides) {
    due.push(
      ...(await deps.sessions.endedBefore(new Date(now - days * DAY_MS), PAGE, { in: [accountId] })).map((s) => s._id),
    );
  }
  if (deps.defaultDays !== undefined) {
    const others = { notIn: overrides.map((o) => o.accountId) };
    due.push(
      ...(await deps.sessions.endedBefore(new Date(now - deps.defaultDays * DAY_MS), PAGE, others)).map((s) => s._id),
    );
  }
  let redacted = 0;
  for (const id of new Set(due)) {
    try {
      await deps.redact(id);
      redacted += 1;
    } catch (error) {
      deps.logger.warn(
        { session_id: id, err: (error as Error).message },
        'retention redaction failed; the next sweep retries',
      );
    }
  }
  if (redacted > 0) deps.logger.info({ redacted }, 'retention sweep redacted sessions past their retention');
  return { redacted };
}
