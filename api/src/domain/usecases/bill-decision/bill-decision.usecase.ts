import { Clock } from '../../../shared/clock';
import { ledgerEntryId } from '../../billing/ledger-entry';
import { AccountLookup, AccountRecord } from '../../ports/account-store';
import { BillingLedger } from '../../ports/billing-ledger';
import { LedgerOutbox } from '../../ports/session-sweeps';
import { planAt } from '../../pricing/plan-at';
import { FALLBACK_BILLING_COUNTRY, priceFor } from '../../pricing/price-for';
import { Session } from '../../session/session';

export interface BillDecisionDeps {
  ledger: BillingLedger;
  accounts: AccountLookup;
  sessions: Pick<LedgerOutbox, 'ledgerWritten'>;
  clock: Clock;
}

/** The spec: production sessions are billed per plan, sandbox never; a cancellation or an expiry is no verification. */
export function isBillable(session: Pick<Session, 'environment' | 'status' | 'failure_reason'>): boolean {
  if (session.environment !== 'production') return false;
  if (session.status !== 'VERIFIED' && session.status !== 'FAILED') return false;
  return session.failure_reason !== 'CANCELLED_BY_API';
}

function billedCountry(documentCountry: string | null, account: AccountRecord | null, plan: string) {
  if (documentCountry && priceFor(plan, documentCountry))
    return { country: documentCountry, source: 'document' as const };
  const fallbackOfAccount = account?.defaultCountry ?? null;
  if (fallbackOfAccount && priceFor(plan, fallbackOfAccount))
    return { country: fallbackOfAccount, source: 'account_default' as const };
  return { country: FALLBACK_BILLING_COUNTRY, source: 'fallback' as const };
}

/**
 * Writes the ledger entry of a session's decided attempt (opened, as the repository returns it),
 * at the price of the plan in force at the decision for the document's country. Idempotent: the
 * entry's id is the session and attempt, so the decision path, the billing sweep and a retry's
 * pre-reset call may all run it and one entry results.
 */
export async function billDecision(
  deps: BillDecisionDeps,
  session: Session,
): Promise<'billed' | 'already-billed' | 'not-billable'> {
  const attempt = session.attempt ?? 1;
  if (!isBillable(session) || !session.decided_at) {
    await deps.sessions.ledgerWritten(session._id, attempt);
    return 'not-billable';
  }
  const account = await deps.accounts.find(session.account_id);
  const decidedAt = new Date(session.decided_at);
  const plan = account ? planAt(account, decidedAt) : 'starter';
  const documentCountry = session.result_body
    ? ((JSON.parse(session.result_body) as { person?: { document_country?: string } | null }).person
        ?.document_country ?? null)
    : null;
  const { country, source } = billedCountry(documentCountry, account, plan);
  const price = priceFor(plan, country) ?? { currency: 'USD', unit_amount: 0 };
  const written = await deps.ledger.record({
    _id: ledgerEntryId(session._id, attempt),
    account_id: session.account_id,
    session_id: session._id,
    attempt,
    status: session.status as 'VERIFIED' | 'FAILED',
    plan,
    country,
    country_source: source,
    currency: price.currency,
    amount: price.unit_amount,
    decided_at: decidedAt,
    month: decidedAt.toISOString().slice(0, 7),
    recorded_at: deps.clock.now(),
  });
  await deps.sessions.ledgerWritten(session._id, attempt);
  return written ? 'billed' : 'already-billed';
}
