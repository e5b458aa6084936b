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

  constructor(connection: Connection) {
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
    const pending = await this.index.owing<OutboxView>(
      limit,
      VIEW,
      (session) => session.webhook_state === 'pending',
      now,
    );
    return pending.map(({ _id, status, webhook_redeliveries, attempt }) => ({
      _id,
      status,
      webhook_redeliveries,
      attempt,
    }));
  }
}
