/**
 * One billable decision: a production session attempt that reached VERIFIED or FAILED by its
 * checks. Its id is `<session_id>:<attempt>`, so however many processes, retries and sweeps record
 * it, the ledger keeps one.
 */
export interface LedgerEntry {
  _id: string;
  account_id: string;
  session_id: string;
  attempt: number;
  status: 'VERIFIED' | 'FAILED';
  plan: string;
  /** Where the billed country came from: the document read, the account's default, or the fallback. */
  country: string;
  country_source: 'document' | 'account_default' | 'fallback';
  currency: string;
  /** In the currency's minor unit. */
  amount: number;
  decided_at: Date;
  /** `YYYY-MM` of decided_at (UTC): the billing report's key. */
  month: string;
  recorded_at: Date;
}

export const ledgerEntryId = (sessionId: string, attempt: number) => `${sessionId}:${attempt}`;
