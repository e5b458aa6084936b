import { LedgerEntry } from '../billing/ledger-entry';

export interface BillingLedger {
  /** True when this call wrote the entry; false when it was already there (a retry, a race). */
  record(entry: LedgerEntry): Promise<boolean>;
}

export interface LedgerReader {
  /** One account's entries of one month (`YYYY-MM`), in decision order. */
  forAccountMonth(accountId: string, month: string): Promise<LedgerEntry[]>;
}
