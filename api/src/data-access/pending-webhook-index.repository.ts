import { Connection } from 'mongoose';
import { InFlightIndex } from './in-flight-index.repository';
import { SessionDocument } from './session.model';

type OutboxView = Pick<SessionDocument, '_id' | 'status' | 'webhook_state' | 'webhook_redeliveries' | 'attempt'>;
export type PendingWebhook = Pick<SessionDocument, '_id' | 'status' | 'webhook_redeliveries' | 'attempt'>;
const VIEW = { status: 1, webhook_state: 1, webhook_redeliveries: 1, attempt: 1 };

/**
 * Sessions whose webhook round is owed: written before the write that sets webhook_state
 * 'pending' (a decision, a redelivery), removed by the outbox sweep once the round's settlement is
 * copied onto the session. The outbox sweep reads this instead of every decided session.
 */
export class PendingWebhookIndex {
  readonly index: InFlightIndex;

  constructor(private readonly connection: Connection) {
    this.index = new InFlightIndex(connection, 'webhooks');
  }

  track(id: string, attempt: number, round: number, now?: Date): Promise<void> {
    return this.index.track(id, { attempt, round }, now);
  }

  settled(id: string, attempt: number, round: number): Promise<void> {
    return this.index.settle(id, attempt, round);
  }

  count(): Promise<number> {
    return this.index.count();
  }

  /**
   * The sessions still pending as their documents say, oldest entry first. An entry whose session
   * is not pending is dropped once past its grace: younger, its decision may still be on its way.
   */
  async listPending(limit: number, now = new Date()): Promise<PendingWebhook[]> {
    const pending: PendingWebhook[] = [];
    for (const entry of await this.index.list({}, limit)) {
      const session = await this.connection.collection<OutboxView>('sessions').findOne({ _id: entry._id }, { projection: VIEW });
      if (session?.webhook_state === 'pending') pending.push({ _id: session._id, status: session.status, webhook_redeliveries: session.webhook_redeliveries, attempt: session.attempt });
      else if (!session || this.index.isStale(entry, now)) await this.index.drop(entry);
    }
    return pending;
  }
}
