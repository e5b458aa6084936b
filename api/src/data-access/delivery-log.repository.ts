import { Connection, Model } from 'mongoose';
import { randomBase62 } from '../shared/random-id';
import { BatchWriter } from './batch-writer';
import { DeliveryAttemptDocument, deliveryAttemptModel } from './delivery-log.model';
import { retryTransient } from './store-retry';

export type NewDeliveryAttempt = Omit<DeliveryAttemptDocument, '_id'>;

/** The store of webhook attempts, so an integrator can see every try and its answer. Writes are batched; each caller waits for its own. */
export class DeliveryLogRepository {
  readonly model: Model<DeliveryAttemptDocument>;
  private readonly writer: BatchWriter<DeliveryAttemptDocument>;

  constructor(connection: Connection) {
    this.model = deliveryAttemptModel(connection);
    this.writer = new BatchWriter(async (docs) => {
      await this.model.insertMany(docs, { ordered: false });
    });
  }

  init(): Promise<void> {
    return this.model.init().then(() => undefined);
  }

  record(attempt: NewDeliveryAttempt): Promise<void> {
    return this.writer.write({ _id: `att_${randomBase62(24)}`, ...attempt });
  }

  /** Callers pass a session id they have already checked the tenant owns. */
  listForSession(sessionId: string, limit = 200): Promise<DeliveryAttemptDocument[]> {
    return retryTransient(() => this.model.find({ session_id: sessionId }).sort({ attempted_at: 1, round: 1, attempt: 1 }).limit(limit).lean<DeliveryAttemptDocument[]>().exec());
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
