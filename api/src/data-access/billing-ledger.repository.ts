import { Connection, Model, Schema } from 'mongoose';
import { LedgerEntry, ledgerEntryId } from '../domain/billing/ledger-entry';
import { BillingLedger, LedgerReader } from '../domain/ports/billing-ledger';

/** One billable decision as stored (see domain/billing/ledger-entry.ts). */
export type LedgerEntryDocument = LedgerEntry;

const ledgerSchema = new Schema<LedgerEntryDocument>(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    session_id: { type: String, required: true },
    attempt: { type: Number, required: true },
    status: { type: String, required: true },
    plan: { type: String, required: true },
    country: { type: String, required: true },
    country_source: { type: String, required: true },
    currency: { type: String, required: true },
    amount: { type: Number, required: true },
    decided_at: { type: Date, required: true },
    month: { type: String, required: true },
    recorded_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// `billing report --account --month`: "one account's entries in one month", in decision order
// (the sort key in the index: a large account's month is never sorted in memory).
ledgerSchema.index({ account_id: 1, month: 1, decided_at: 1 });
// A session's entries, one per billed attempt.
ledgerSchema.index({ session_id: 1, attempt: 1 });

const DUPLICATE_KEY = 11000;

export { ledgerEntryId };

/** The billing ledger: insert-once entries, read back per account and month. */
export class BillingLedgerRepository implements BillingLedger, LedgerReader {
  readonly model: Model<LedgerEntryDocument>;

  constructor(connection: Connection) {
    this.model =
      (connection.models.LedgerEntry as Model<LedgerEntryDocument> | undefined) ??
      connection.model<LedgerEntryDocument>('LedgerEntry', ledgerSchema, 'billing_ledger');
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  /** True when this call wrote the entry; false when it was already there (a retry, a race). */
  async record(entry: LedgerEntryDocument): Promise<boolean> {
    try {
      await this.model.create(entry);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  forAccountMonth(accountId: string, month: string): Promise<LedgerEntryDocument[]> {
    return this.model
      .find({ account_id: accountId, month })
      .sort({ decided_at: 1 })
      .lean<LedgerEntryDocument[]>()
      .exec();
  }

  forSession(sessionId: string): Promise<LedgerEntryDocument[]> {
    return this.model.find({ session_id: sessionId }).sort({ attempt: 1 }).lean<LedgerEntryDocument[]>().exec();
  }
}
