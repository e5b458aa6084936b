import { Connection } from 'mongoose';
import { connectMongo } from '../../src/data-access/mongo-connection';
import { PiiVault } from '../../src/data-access/pii-vault';
import { SessionDocument, sessionModel } from '../../src/data-access/session.model';
import { SessionRepository } from '../../src/data-access/session.repository';
import { SettledState, WebhookOutboxRepository } from '../../src/data-access/webhook-outbox.repository';
import { parseMasterKeys } from '../../src/shared/master-keys';
import { newSessionId } from '../../src/shared/random-id';
import { isolatedTestEnv } from '../../../scripts/test-support/test-env';
import { sessionDocument } from '../support/session-document';

/**
 * The outbox sweep runs on its own schedule, so it may copy a settlement onto the session between
 * redelivery's read and its conditional write. This repository runs the sweep's copy at exactly
 * that point, once, so the interleaving happens on every run instead of one in four.
 */
class SweepBetweenReadAndWrite extends WebhookOutboxRepository {
  sweepOnNextRead = false;

  override async effectiveState(
    session: Pick<SessionDocument, '_id' | 'webhook_state' | 'webhook_redeliveries' | 'attempt'>,
  ) {
    const state = await super.effectiveState(session);
    if (this.sweepOnNextRead && (state === 'delivered' || state === 'failed')) {
      this.sweepOnNextRead = false;
      await this.applySettlement(session._id, session.webhook_redeliveries ?? 0, state, session.attempt ?? 1);
    }
    return state;
  }
}

describe('admin redelivery racing the outbox sweep', () => {
  let connection: Connection;
  let sessions: SessionRepository;
  let outbox: SweepBetweenReadAndWrite;
  const stored = async (id: string) => (await sessionModel(connection).findById(id).lean().exec())!;

  const decidedWithWebhookOwed = async (): Promise<string> => {
    const id = newSessionId();
    const now = new Date();
    await sessions.insert(sessionDocument(id, { account_id: 'acct_race' }));
    await sessions.transitionBySystem(id, ['PENDING'], {
      status: 'VERIFIED',
      decided_at: now,
      webhook_state: 'pending',
      webhook_delivery_id: 'dlv_race',
    });
    return id;
  };
  const settleRound0 = async (id: string, state: SettledState) => {
    await outbox.settle(id, 0, state, new Date());
    await outbox.flush();
  };

  beforeAll(async () => {
    const env = isolatedTestEnv();
    connection = await connectMongo(env.MONGODB_URI);
    sessions = new SessionRepository(connection, new PiiVault(connection, parseMasterKeys(env.PII_MASTER_KEYS)));
    await sessions.init();
    outbox = new SweepBetweenReadAndWrite(sessionModel(connection), sessions.vault);
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it.each(['delivered', 'failed'] as const)(
    'opens round 1 when the sweep copies a %s settlement between the read and the write',
    async (settled) => {
      const id = await decidedWithWebhookOwed();
      await settleRound0(id, settled);
      expect((await stored(id)).webhook_state).toBe('pending');
      outbox.sweepOnNextRead = true;

      const redelivered = await outbox.startRedelivery(id);

      expect(outbox.sweepOnNextRead).toBe(false);
      expect(redelivered).toMatchObject({ _id: id, webhook_state: 'pending', webhook_redeliveries: 1 });
      expect(await stored(id)).toMatchObject({ webhook_state: 'pending', webhook_redeliveries: 1 });
    },
  );

  it('opens round 1 when the sweep copied the settlement before the read', async () => {
    const id = await decidedWithWebhookOwed();
    await settleRound0(id, 'delivered');
    await outbox.applySettlement(id, 0, 'delivered');
    expect(await outbox.startRedelivery(id)).toMatchObject({ webhook_redeliveries: 1 });
  });

  it('refuses while the round is still in flight (no settlement yet)', async () => {
    const id = await decidedWithWebhookOwed();
    expect(await outbox.startRedelivery(id)).toBeNull();
    expect(await stored(id)).toMatchObject({ webhook_state: 'pending', webhook_redeliveries: 0 });
  });

  it('opens one round, not two, when two redeliveries of one settled round race each other', async () => {
    const id = await decidedWithWebhookOwed();
    await settleRound0(id, 'delivered');
    const both = await Promise.all([outbox.startRedelivery(id), outbox.startRedelivery(id)]);
    expect(both.filter((r) => r !== null)).toHaveLength(1);
    expect((await stored(id)).webhook_redeliveries).toBe(1);
  });

  it('does not reopen a round that a later redelivery already opened and that has not settled', async () => {
    const id = await decidedWithWebhookOwed();
    await settleRound0(id, 'delivered');
    expect(await outbox.startRedelivery(id)).not.toBeNull();
    expect(await outbox.startRedelivery(id)).toBeNull();
    expect((await stored(id)).webhook_redeliveries).toBe(1);
  });
});
