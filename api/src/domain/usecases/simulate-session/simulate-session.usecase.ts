import { AppError } from '../../../shared/app-error';
import { Tenant } from '../../environment';
import { SanctionsScreening } from '../../ports/sanctions-screening';
import { TenantSessionStore } from '../../ports/tenant-sessions';
import { FailureReason } from '../../session-status';
import { decideSession, DecideDeps } from '../decide-session/decide-session.usecase';
import { SANDBOX_SPECIMEN, specimenExpiry } from './sandbox-specimen';
import { screenSpecimen } from './screen-specimen';
import { simulatedChecks } from './simulated-checks';

export type SimulateCommand = { outcome: 'VERIFIED' } | { outcome: 'FAILED'; failure_reason: FailureReason };

/**
 * Sandbox only: completes an open session as a real capture would, with the specimen identity, so
 * an integrator's tests reach every outcome (result, webhook, credential) without a camera.
 * Watchlist accounts get the specimen really screened; a list that names it fails the session
 * with SANCTIONS_MATCH, as it would a real one.
 */
export async function simulateSession(
  deps: DecideDeps & { sessions: TenantSessionStore; sanctions: SanctionsScreening },
  tenant: Tenant,
  id: string,
  command: SimulateCommand,
) {
  if (tenant.environment !== 'sandbox') {
    throw new AppError('FORBIDDEN', 'Simulation is available to sandbox keys only.');
  }
  const scoped = deps.sessions.forTenant(tenant);
  const session = await scoped.get(id);
  const requested = command.outcome === 'FAILED' ? command.failure_reason : null;
  const person = requested === 'DOCUMENT_UNREADABLE' ? null : SANDBOX_SPECIMEN;
  const screened = tenant.watchlist ? await screenSpecimen(deps.sanctions, person) : null;
  const listed = screened === 'MATCH' && requested === null;
  const reason = listed ? 'SANCTIONS_MATCH' : requested;
  const now = deps.clock.now();
  const updated = await decideSession(
    deps,
    session,
    {
      status: reason ? 'FAILED' : 'VERIFIED',
      failure_reason: reason,
      checks: simulatedChecks(reason, screened),
      confidence: reason ? 0.18 : 0.97,
      person,
      document_expiry: person ? specimenExpiry(now) : null,
    },
    (from, update) => scoped.transition(id, from, update, session.attempt ?? 1),
  );
  return updated.result_body as string;
}
