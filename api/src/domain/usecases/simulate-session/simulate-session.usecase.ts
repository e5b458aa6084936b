import { SessionRepository } from '../../../data-access/session.repository';
import { AppError } from '../../../shared/app-error';
import { Tenant } from '../../environment';
import { FailureReason } from '../../session-status';
import { decideSession, DecideDeps } from '../decide-session/decide-session.usecase';
import { SANDBOX_SPECIMEN, specimenExpiry } from './sandbox-specimen';
import { simulatedChecks } from './simulated-checks';

export type SimulateCommand = { outcome: 'VERIFIED' } | { outcome: 'FAILED'; failure_reason: FailureReason };

/**
 * Sandbox only: completes an open session as a real capture would, with the specimen identity, so
 * an integrator's tests reach every outcome (result, webhook, credential) without a camera.
 */
export async function simulateSession(
  deps: DecideDeps & { sessions: SessionRepository },
  tenant: Tenant,
  id: string,
  command: SimulateCommand,
) {
  if (tenant.environment !== 'sandbox') {
    throw new AppError('FORBIDDEN', 'Simulation is available to sandbox keys only.');
  }
  const scoped = deps.sessions.forTenant(tenant);
  const session = await scoped.get(id);
  const reason = command.outcome === 'FAILED' ? command.failure_reason : null;
  const unreadable = reason === 'DOCUMENT_UNREADABLE';
  const now = deps.clock.now();
  const updated = await decideSession(
    deps,
    session,
    {
      status: command.outcome,
      failure_reason: reason,
      checks: simulatedChecks(reason, tenant.watchlist),
      confidence: command.outcome === 'VERIFIED' ? 0.97 : 0.18,
      person: unreadable ? null : SANDBOX_SPECIMEN,
      document_expiry: unreadable ? null : specimenExpiry(now),
    },
    (from, update) => scoped.transition(id, from, update, session.attempt ?? 1),
  );
  return updated.result_body as string;
}
