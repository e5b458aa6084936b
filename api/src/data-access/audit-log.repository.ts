import { Connection, Model, Schema } from 'mongoose';
import { AuditEvent, AuditLog } from '../domain/audit/audit-event';
import { randomBase62 } from '../shared/random-id';
import { GroupedInserts } from './grouped-inserts';
import { retryTransient } from './store-retry';

const DUPLICATE_KEY = 11000;

interface AuditEventDocument extends Omit<AuditEvent, 'actor'> {
  _id: string;
  actor_type: AuditEvent['actor']['type'];
  actor_id: string | null;
}

const auditSchema = new Schema<AuditEventDocument>(
  {
    _id: { type: String, required: true },
    action: { type: String, required: true },
    actor_type: { type: String, required: true },
    actor_id: { type: String, default: null },
    at: { type: Date, required: true },
    session_id: { type: String, default: null },
    account_id: { type: String, default: null },
    request_id: { type: String, default: null },
    detail: { type: String, default: null },
  },
  { versionKey: false },
);
// `npm run admin -- audit --session <id>`: "the events of one session, oldest first".
auditSchema.index({ session_id: 1, at: 1 });
// `audit --account <id>`: "the events of one account".
auditSchema.index({ account_id: 1, at: 1 });

/** The audit log as printed: the stored record less its storage id. */
export type AuditEntry = AuditEvent & { id: string };

/**
 * Append-only: this repository inserts and reads, and has no path that updates or deletes a
 * record (retention redaction leaves the log alone: it holds ids, never personal data).
 */
export class AuditLogRepository implements AuditLog {
  private readonly model: Model<AuditEventDocument>;
  /** Every result and report read writes one: reads that arrive together share one commit. */
  private readonly inserts: GroupedInserts<AuditEventDocument>;

  constructor(connection: Connection) {
    this.model =
      (connection.models.AuditEvent as Model<AuditEventDocument> | undefined) ??
      connection.model<AuditEventDocument>('AuditEvent', auditSchema, 'audit_events');
    this.inserts = new GroupedInserts<AuditEventDocument>(connection, this.model.collection.collectionName);
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  async record(event: AuditEvent): Promise<void> {
    const { actor, ...rest } = event;
    const row = new this.model({ _id: `aud_${randomBase62(24)}`, ...rest, actor_type: actor.type, actor_id: actor.id });
    await row.validate();
    const doc = row.toObject();
    // One id for every try: a try whose answer was lost but whose insert landed makes the next a duplicate, which is the success.
    await retryTransient(() =>
      this.inserts.insert(doc).then(
        () => undefined,
        (error: { code?: number }) => {
          if (error.code !== DUPLICATE_KEY) throw error;
        },
      ),
    );
  }

  forSession(sessionId: string): Promise<AuditEntry[]> {
    return this.list({ session_id: sessionId });
  }

  forAccount(accountId: string): Promise<AuditEntry[]> {
    return this.list({ account_id: accountId });
  }

  private async list(filter: Record<string, string>): Promise<AuditEntry[]> {
    const docs = await this.model.find(filter).sort({ at: 1 }).lean<AuditEventDocument[]>().exec();
    return docs.map(({ _id, actor_type, actor_id, ...rest }) => ({
      id: _id,
      ...rest,
      actor: { type: actor_type, id: actor_id } as AuditEvent['actor'],
    }));
  }
}
