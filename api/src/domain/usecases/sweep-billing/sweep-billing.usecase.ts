import { Logger } from '../../../shared/logger';
import { ApplicantSessions } from '../../ports/session-reads';
import { LedgerOutbox } from '../../ports/session-sweeps';
import { billDecision, BillDecisionDeps } from '../bill-decision/bill-decision.usecase';

/**
 * The billing outbox's safety net: a decision whose ledger entry was not written at once (the
 * process died, the store hiccuped) is billed here; the entry's id makes a second write a no-op.
 */
export async function sweepBilling(
  deps: BillDecisionDeps & {
    sessions: LedgerOutbox & ApplicantSessions;
    logger: Logger;
  },
) {
  let billed = 0;
  for (const id of await deps.sessions.ledgerPending()) {
    const session = await deps.sessions.findForApplicant(id);
    if (session && (await billDecision(deps, session)) === 'billed') billed += 1;
  }
  if (billed > 0) deps.logger.info({ billed }, 'billing sweep wrote owed ledger entries');
  return { billed };
}
