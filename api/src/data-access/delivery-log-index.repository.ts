import { Connection, Model, Schema } from 'mongoose';

/**
 * A session's webhook delivery attempts by id, one document per session keyed by its id, so
 * GET /v1/sessions/{id}/webhooks reads by _id (pushed down to FerretDB's _id index) instead of
 * filtering every stored attempt on session_id, which FerretDB (SQLite) does by reading them all.
 * Written before the attempts it lists: an id whose attempt was never written is skipped on read.
 */
export interface DeliveryLogIndexDocument {
  _id: string;
  attempt_ids: string[];
}

const schema = new Schema<DeliveryLogIndexDocument>(
  { _id: { type: String, required: true }, attempt_ids: { type: [String], default: [] } },
  { versionKey: false },
);

const MODEL_NAME = 'DeliveryLogBySession';

export class DeliveryLogIndex {
  readonly model: Model<DeliveryLogIndexDocument>;

  constructor(connection: Connection) {
    this.model =
      (connection.models[MODEL_NAME] as Model<DeliveryLogIndexDocument> | undefined) ??
      connection.model<DeliveryLogIndexDocument>(MODEL_NAME, schema, 'webhook_delivery_attempts_by_session');
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  /** One upsert per session of the batch; $addToSet, so writing a batch again adds nothing. */
  async add(attempts: Array<{ _id: string; session_id: string }>): Promise<void> {
    const bySession = new Map<string, string[]>();
    for (const a of attempts) bySession.set(a.session_id, [...(bySession.get(a.session_id) ?? []), a._id]);
    if (bySession.size === 0) return;
    const ops = [...bySession].map(([sessionId, ids]) => ({
      updateOne: {
        filter: { _id: sessionId },
        update: { $addToSet: { attempt_ids: { $each: ids } } },
        upsert: true,
      },
    }));
    try {
      await this.model.bulkWrite(ops, { ordered: false });
    } catch (error) {
      // Racing upserts of a new session's entry: the loser's is a duplicate key; the entry exists now.
      const writeErrors = (error as { writeErrors?: Array<{ code?: number; err?: { code?: number } }> }).writeErrors;
      if (!writeErrors?.length || !writeErrors.every((e) => (e.code ?? e.err?.code) === 11000)) throw error;
      await this.model.bulkWrite(ops, { ordered: false });
    }
  }

  /** The attempt ids of a session in the order written, or null when it has no entry. */
  async idsOf(sessionId: string): Promise<string[] | null> {
    const doc = await this.model.findById(sessionId).lean<DeliveryLogIndexDocument>().exec();
    return doc ? doc.attempt_ids : null;
  }
}
