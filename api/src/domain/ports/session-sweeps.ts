import { Session } from '../session/session';

/** Submitted sessions still open: decisions owed, which the capture sweep enqueues again. */
export interface DecisionBacklog {
  awaitingDecision(limit?: number): Promise<Array<Pick<Session, '_id' | 'attempt'>>>;
}

/** The billing outbox: decided sessions whose ledger entry is still owed. */
export interface LedgerOutbox {
  /** Ids of sessions owing an entry, a bounded page. */
  ledgerPending(limit?: number): Promise<string[]>;
  /** The entry of that attempt is written (or none is owed): the session no longer owes one. */
  ledgerWritten(id: string, attempt: number): Promise<void>;
}

export type RetentionCandidate = Pick<Session, '_id' | 'account_id' | 'status' | 'decided_at' | 'updated_at'>;

/** The retention sweep's reads. */
export interface RetentionCandidates {
  /** Ended sessions not redacted yet whose end is at or before `cutoff`, a bounded page. */
  endedBefore(
    cutoff: Date,
    limit: number,
    accountIds?: { in?: string[]; notIn?: string[] },
  ): Promise<RetentionCandidate[]>;
  /** Ended sessions whose redaction began long enough before `now` and never finished, a bounded page. */
  unfinishedRedactions(limit: number, now: Date): Promise<string[]>;
}
