import { Connection, Model } from 'mongoose';
import { randomBase62 } from '../shared/random-id';
import { DeliveryAttemptDocument, deliveryAttemptModel } from './delivery-log.model';

export type NewDeliveryAttempt = Omit<DeliveryAttemptDocument, '_id'>;

/** The store of webhook attempts (issue 5, item 4). */
export class DeliveryLogRepository {
  readonly model: Model<DeliveryAttemptDocument>;

  constructor(connection: Connection) {
    this.model = deliveryAttemptModel(connection);
  }

  init(): Promise<void> {
    return this.model.init().then(() => undefined);
  }

  async record(attempt: NewDeliveryAttempt): Promise<void> {
    await this.model.create({ _id: `att_${randomBase62(24)}`, ...attempt });
  }

  /** Callers pass a session id they have already checked the tenant owns. */
  listForSession(sessionId: string, limit = 200): Promise<DeliveryAttemptDocument[]> {
    return this.model.find({ session_id: sessionId }).sort({ attempted_at: 1 }).limit(limit).lean<DeliveryAttemptDocument[]>().exec();
  }
}
