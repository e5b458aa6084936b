import { Connection, Model } from 'mongoose';
import { DeliveryLog, DeliveryLogReader } from '../domain/ports/delivery-log';
import { NewDeliveryAttempt } from '../domain/webhooks/delivery-attempt';
import { randomBase62 } from '../shared/random-id';
import { BatchWriter } from './batch-writer';
import { DeliveryLogIndex } from './delivery-log-index.repository';
import { DeliveryAttemptDocument, deliveryAttemptModel } from './delivery-log.model';
import { inFlightMigrated } from './in-flight-backfill';
import { retryTransient } from './store-retry';

export type { NewDeliveryAttempt };

/** The store of webhook attempts, so an integrator can see every try and its answer. Writes are batched; each caller waits for its own. */
export class DeliveryLogRepository implements DeliveryLog, DeliveryLogReader {
  readonly model: Model<DeliveryAttemptDocument>;
  private readonly writer: BatchWriter<DeliveryAttemptDocument>;
  readonly bySession: DeliveryLogIndex;
  private migrated = false;

  constructor(private readonly connection: Connection) {
    this.model = deliveryAttemptModel(connection);
    this.bySession = new DeliveryLogIndex(connection);
    this.writer = new BatchWriter(async (docs) => {
      await this.bySession.add(docs);
      await this.model.insertMany(docs, { ordered: false });
    });
  }

  async init(): Promise<void> {
    await Promise.all([this.model.init(), this.bySession.init()]);
  }

  record(attempt: NewDeliveryAttempt): Promise<void> {
    return this.writer.write({ _id: `att_${randomBase62(24)}`, ...attempt });
  }

  /** Callers pass a session id they have already checked the tenant owns. */
  async listForSession(sessionId: string, limit = 200): Promise<DeliveryAttemptDocument[]> {
    const ids = await retryTransient(() => this.bySession.idsOf(sessionId));
    if (ids === null) {
      this.migrated ||= await inFlightMigrated(this.connection);
      if (this.migrated) return [];
      // Stored before the per-session index existed, and the one-time backfill has not run yet.
      return retryTransient(() =>
        this.model
          .find({ session_id: sessionId })
          .sort({ attempted_at: 1, round: 1, attempt: 1 })
          .limit(limit)
          .lean<DeliveryAttemptDocument[]>()
          .exec(),
      );
    }
    const found = await Promise.all(
      ids
        .slice(0, limit)
        .map((id) => retryTransient(() => this.model.findById(id).lean<DeliveryAttemptDocument>().exec())),
    );
    const order = (a: DeliveryAttemptDocument) => [new Date(a.attempted_at).getTime(), a.round, a.attempt];
    return found
      .filter((a): a is DeliveryAttemptDocument => a !== null)
      .sort((a, b) => {
        const [x, y] = [order(a), order(b)];
        return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
      });
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
