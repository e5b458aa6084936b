import { Connection } from 'mongoose';
import { OPEN_STATUSES } from '../domain/session-status';
import { DeliveryLogIndex } from './delivery-log-index.repository';
import { InFlightSessions } from './in-flight-sessions';
import { SessionDocument } from './session.model';

export const IN_FLIGHT_MIGRATION = 'in-flight-collections-v1';
const MIGRATIONS = 'store_migrations';

type Migrated = { _id: string; done_at: Date };
type Unfinished = Pick<
  SessionDocument,
  | '_id'
  | 'status'
  | 'attempt'
  | 'expires_at'
  | 'decision_requested_at'
  | 'webhook_state'
  | 'webhook_redeliveries'
  | 'ledger_pending'
  | 'credential_token'
>;

/** True once the in-flight collections hold the sessions stored before they existed. */
export async function inFlightMigrated(connection: Connection): Promise<boolean> {
  return (await connection.collection<Migrated>(MIGRATIONS).findOne({ _id: IN_FLIGHT_MIGRATION })) !== null;
}

/**
 * Once per store: sessions stored before the in-flight collections existed get their entries
 * (open ones, owed webhooks and ledger entries, issued credential tokens, the delivery log by
 * session), in one read of `sessions` and one of the delivery attempts — the last whole read the sweeps make. Entries are upserts and the marker is written
 * last, so a crash part-way runs it again from the start; sessions written meanwhile are tracked by
 * their own writes. Returns how many sessions it looked at, or null when it had already run.
 */
export async function backfillInFlight(connection: Connection, inFlight: InFlightSessions): Promise<number | null> {
  if (await inFlightMigrated(connection)) return null;
  const filter = {
    $or: [
      { status: { $in: OPEN_STATUSES } },
      { webhook_state: 'pending' },
      { ledger_pending: true },
      { credential_token: { $ne: null } },
    ],
  };
  const projection = {
    status: 1,
    attempt: 1,
    expires_at: 1,
    decision_requested_at: 1,
    webhook_state: 1,
    webhook_redeliveries: 1,
    ledger_pending: 1,
    credential_token: 1,
  };
  let seen = 0;
  for await (const session of connection.collection<Unfinished>('sessions').find(filter as never, { projection })) {
    seen += 1;
    const attempt = session.attempt ?? 1;
    if (OPEN_STATUSES.includes(session.status)) {
      await inFlight.open.track(session._id, attempt, session.expires_at);
      if (session.decision_requested_at)
        await inFlight.open.markDecisionRequested(session._id, session.decision_requested_at);
    }
    if (session.webhook_state === 'pending')
      await inFlight.webhooks.track(session._id, attempt, session.webhook_redeliveries ?? 0);
    if (session.ledger_pending) await inFlight.ledger.track(session._id, attempt);
    if (session.credential_token) await inFlight.tokens.record(session.credential_token, session._id);
  }
  // The delivery log by session, for the attempts recorded before it existed.
  const deliveries = new DeliveryLogIndex(connection);
  let batch: Array<{ _id: string; session_id: string }> = [];
  for await (const attempt of connection
    .collection<{ _id: string; session_id: string }>('webhook_delivery_attempts')
    .find({}, { projection: { session_id: 1 } })) {
    batch.push(attempt);
    if (batch.length < 500) continue;
    await deliveries.add(batch);
    batch = [];
  }
  await deliveries.add(batch);
  await connection
    .collection<Migrated>(MIGRATIONS)
    .updateOne({ _id: IN_FLIGHT_MIGRATION }, { $set: { done_at: new Date() } }, { upsert: true });
  return seen;
}
