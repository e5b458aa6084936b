import { recordRead, ReadContext } from '../../audit/record-read';
import { Tenant } from '../../environment';
import { SessionAttemptArchive } from '../../ports/session-attempts';
import { TenantSessionStore } from '../../ports/tenant-sessions';

interface AttemptEntry {
  attempt: number;
  status: string;
  decided_at: Date | null;
  result_body: string | null;
}

const entryJson = (entry: AttemptEntry): string => {
  const head = JSON.stringify({
    attempt: entry.attempt,
    status: entry.status,
    decided_at: entry.decided_at ? entry.decided_at.toISOString() : null,
  });
  return `${head.slice(0, -1)},"result":${entry.result_body ?? 'null'}}`;
};

/**
 * GET /v1/sessions/{id}/attempts: every attempt, oldest first, each with its result resource as
 * the exact bytes GET /result served and the webhook signed at the time (null while undecided,
 * or expired). An archived copy of the current attempt (a retry that died before its reset) is
 * not listed twice: the session document is the truth for the current attempt.
 */
export async function listAttempts(
  deps: { sessions: TenantSessionStore; attempts: Pick<SessionAttemptArchive, 'listForSession'> },
  tenant: Tenant,
  id: string,
  who: ReadContext,
): Promise<string> {
  const session = await deps.sessions.forTenant(tenant).get(id);
  await recordRead(who, 'attempts.read', tenant, id);
  const currentAttempt = session.attempt ?? 1;
  const earlier: AttemptEntry[] = (await deps.attempts.listForSession(id)).filter((a) => a.attempt < currentAttempt);
  const entries = [
    ...earlier,
    {
      attempt: currentAttempt,
      status: session.status,
      decided_at: session.decided_at,
      result_body: session.result_body,
    },
  ];
  return `{"session_id":${JSON.stringify(id)},"attempt":${currentAttempt},"attempts":[${entries.map(entryJson).join(',')}]}`;
}
