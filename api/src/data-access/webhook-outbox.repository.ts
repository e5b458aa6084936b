import { Model } from 'mongoose';
import { DECIDED_STATUSES } from '../domain/session-status';
import { SessionDocument } from './session.model';

export type OutboxEntry = Pick<SessionDocument, '_id' | 'status' | 'webhook_redeliveries'>;
export type DeliverableSession = Pick<
  SessionDocument,
  '_id' | 'account_id' | 'environment' | 'status' | 'webhook_url' | 'result_body' | 'webhook_state' | 'webhook_delivery_id' | 'webhook_redeliveries'
>;

const DELIVERABLE_FIELDS = {
  account_id: 1, environment: 1, status: 1, webhook_url: 1, result_body: 1, webhook_state: 1, webhook_delivery_id: 1, webhook_redeliveries: 1,
};

/** Sessions written before redelivery rounds existed have no counter: that is round 0. */
const roundIs = (round: number) => (round === 0 ? { webhook_redeliveries: { $in: [0, null] } } : { webhook_redeliveries: round });

/**
 * The outbox half of the session document: decide-session sets webhook_state='pending' in the
 * same write as the decision; the delivery worker settles it; the sweeper finds what is owed.
 * System-side (no tenant): workers act on ids taken from jobs the service itself enqueued.
 */
export class WebhookOutboxRepository {
  constructor(private readonly sessions: Model<SessionDocument>) {}

  findDeliverable(id: string): Promise<DeliverableSession | null> {
    return this.sessions.findById(id, DELIVERABLE_FIELDS).lean<DeliverableSession>().exec();
  }

  /** Conditional on the round, so a stale job from an earlier round cannot settle a newer one. */
  async settle(id: string, round: number, state: 'delivered' | 'failed'): Promise<boolean> {
    const result = await this.sessions.updateOne({ _id: id, webhook_state: 'pending', ...roundIs(round) }, { $set: { webhook_state: state } }).exec();
    return result.modifiedCount === 1;
  }

  /** Oldest first: the sweeper works through a bounded page per run. */
  listPending(limit: number): Promise<OutboxEntry[]> {
    return this.sessions
      .find({ webhook_state: 'pending' }, { status: 1, webhook_redeliveries: 1 })
      .sort({ decided_at: 1 })
      .limit(limit)
      .lean<OutboxEntry[]>()
      .exec();
  }

  async isStillPending(id: string, round: number): Promise<boolean> {
    return (await this.sessions.exists({ _id: id, webhook_state: 'pending', ...roundIs(round) })) !== null;
  }

  /**
   * Opens a new delivery round for a decided session that had a webhook (cancelled ones never do)
   * and whose last round has settled. Not while one is pending: FerretDB applies a filtered update
   * as read-then-write, so racing the worker's settle could lose the new round. The delivery id
   * stays: a receiver that stored the first copy recognises this one.
   */
  async startRedelivery(id: string): Promise<DeliverableSession | null> {
    const result = await this.sessions
      .updateOne(
        { _id: id, status: { $in: DECIDED_STATUSES }, webhook_delivery_id: { $ne: null }, webhook_state: { $in: ['delivered', 'failed'] } },
        { $set: { webhook_state: 'pending' }, $inc: { webhook_redeliveries: 1 } },
      )
      .exec();
    return result.modifiedCount === 1 ? this.findDeliverable(id) : null;
  }
}
