import { Connection } from 'mongoose';
import { InFlightIndex } from './in-flight-index.repository';
import { SessionDocument } from './session.model';

/**
 * Billable decisions whose ledger entry is owed: written before the decision that sets
 * ledger_pending, removed when the entry is written (or the sweep finds the session owes none).
 * The billing sweep reads this instead of every decided session.
 */
export class PendingLedgerIndex {
  readonly index: InFlightIndex;

  constructor(connection: Connection) {
    this.index = new InFlightIndex(connection, 'ledger');
  }

  track(id: string, attempt: number, now?: Date): Promise<void> {
    return this.index.track(id, { attempt }, now);
  }

  written(id: string, attempt: number): Promise<void> {
    return this.index.settle(id, attempt);
  }

  /** Sessions that owe a ledger entry as their documents say; entries past their grace with nothing owed are dropped. */
  async owed(limit: number, now = new Date()): Promise<string[]> {
    const owed = await this.index.owing<Pick<SessionDocument, '_id' | 'ledger_pending'>>(
      limit,
      { ledger_pending: 1 },
      (session) => Boolean(session.ledger_pending),
      now,
    );
    return owed.map((session) => session._id);
  }
}
