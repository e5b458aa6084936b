import mongoose, { Connection } from 'mongoose';
import { DeliveryLogRepository } from '../src/data-access/delivery-log.repository';
import { backfillInFlight } from '../src/data-access/in-flight-backfill';
import { ENTRY_GRACE_MS } from '../src/data-access/in-flight-index.repository';
import { connectMongo } from '../src/data-access/mongo-connection';
import { PiiVault } from '../src/data-access/pii-vault';
import { SessionDocument } from '../src/data-access/session.model';
import { SessionRepository } from '../src/data-access/session.repository';
import { WebhookOutboxRepository } from '../src/data-access/webhook-outbox.repository';
import { sessionModel } from '../src/data-access/session.model';
import { parseMasterKeys } from '../src/shared/master-keys';
import { newSessionId } from '../src/shared/random-id';
import { isolatedTestEnv } from '../../scripts/test-support/test-env';
import { sessionDocument } from './support/session-document';
import { anyOf, arrayContaining, objectContaining } from '../../scripts/test-support/typed-matchers';

const session = (id: string, fields: Partial<SessionDocument> = {}) =>
  sessionDocument(id, { environment: 'production', ...fields });

const decision = (token: string) => ({
  status: 'VERIFIED' as const,
  decided_at: new Date(),
  webhook_state: 'pending' as const,
  webhook_delivery_id: 'dlv_x',
  ledger_pending: true,
  credential_token: token,
});

/**
 * The sweeps read small collections of unfinished work keyed by session id, not every stored
 * session: these check that the collections follow the sessions' writes, that what the sweeps
 * get is what the session documents say, and that sessions stored before them are taken in.
 */
describe('in-flight work mirrored by session id', () => {
  let connection: Connection;
  let sessions: SessionRepository;
  let outbox: WebhookOutboxRepository;
  const entry = (collection: string, id: string) => connection.collection(collection).findOne({ _id: id as never });

  beforeAll(async () => {
    const env = isolatedTestEnv();
    connection = await connectMongo(env.MONGODB_URI);
    sessions = new SessionRepository(connection, new PiiVault(connection, parseMasterKeys(env.PII_MASTER_KEYS)));
    await sessions.init();
    outbox = new WebhookOutboxRepository(sessionModel(connection), sessions.vault);
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('tracks a created session as open with its deadline, and drops it when a decision closes it, leaving the webhook, ledger entry and token it owes', async () => {
    const id = newSessionId();
    await sessions.insert(session(id));
    expect(await entry('open_sessions', id)).toMatchObject({ attempt: 1, due_at: anyOf(Date) });
    await sessions.transitionBySystem(id, ['PENDING'], decision(`cred_${id}`));
    expect(await entry('open_sessions', id)).toBeNull();
    expect(await entry('pending_webhooks', id)).toMatchObject({ attempt: 1, round: 0 });
    expect(await entry('pending_ledger_entries', id)).toMatchObject({ attempt: 1 });
    expect(await entry('credential_tokens', `cred_${id}`)).toMatchObject({ session_id: id });
    expect((await sessions.findByCredentialToken(`cred_${id}`))?._id).toBe(id);
    expect(await outbox.listPending(1000)).toContainEqual(objectContaining({ _id: id, status: 'VERIFIED' }));
    expect(await sessions.ledgerPending()).toContain(id);
  });

  it('creates a session with two inserts, its open entry first, and no upsert', async () => {
    const watched = await mongoose
      .createConnection(isolatedTestEnv().MONGODB_URI, { monitorCommands: true })
      .asPromise();
    try {
      const repo = new SessionRepository(watched, sessions.vault);
      await repo.init();
      const commands: string[] = [];
      watched.getClient().on('commandStarted', (event) => {
        const command = event.command as Record<string, unknown>;
        commands.push(`${event.commandName} ${String(command[event.commandName])}`);
      });
      const id = newSessionId();
      expect(await repo.insertOnce(session(id))).toBe(true);
      expect(commands).toEqual(['insert open_sessions', 'insert sessions']);
      expect(await watched.collection('open_sessions').findOne({ _id: id as never })).toMatchObject({
        attempt: 1,
        due_at: anyOf(Date),
        since: anyOf(Date),
      });
    } finally {
      await watched.close();
    }
  });

  it('commits creations that arrive together in shared inserts, each answered for its own session (a duplicate alone refused)', async () => {
    const watched = await mongoose
      .createConnection(isolatedTestEnv().MONGODB_URI, { monitorCommands: true })
      .asPromise();
    try {
      const repo = new SessionRepository(watched, sessions.vault);
      await repo.init();
      const existing = newSessionId();
      await repo.insert(session(existing));
      const inserts: string[] = [];
      watched.getClient().on('commandStarted', (event) => {
        if (event.commandName === 'insert') inserts.push(String(event.command.insert));
      });
      const fresh = Array.from({ length: 8 }, () => newSessionId());
      const answers = await Promise.all([...fresh, existing].map((id) => repo.insertOnce(session(id))));
      expect(answers).toEqual([...fresh.map(() => true), false]);
      expect(inserts.filter((c) => c === 'sessions').length).toBeLessThan(fresh.length);
      expect(inserts.filter((c) => c === 'open_sessions').length).toBeLessThan(fresh.length + 1);
      for (const id of fresh) {
        expect((await repo.findForApplicant(id))?.status).toBe('PENDING');
        expect(await watched.collection('open_sessions').findOne({ _id: id as never })).toMatchObject({ attempt: 1 });
      }
      expect(await watched.collection('sessions').findOne({ _id: fresh[0] as never })).toMatchObject({
        attempt: 1,
        webhook_redeliveries: 0,
      });
    } finally {
      await watched.close();
    }
  });

  it('leaves only an open entry when the session write fails, which the re-run under the same id completes', async () => {
    const id = newSessionId();
    // Refused after the entry went out (an invalid locale): the second of the two writes fails.
    await expect(sessions.insertOnce(session(id, { locale: 'xx' as never }))).rejects.toThrow();
    expect(await entry('open_sessions', id)).toMatchObject({ attempt: 1 });
    expect(await sessions.findForApplicant(id)).toBeNull();
    const deadline = new Date(Date.now() + 120_000);
    expect(await sessions.insertOnce(session(id, { expires_at: deadline }))).toBe(true);
    expect(await entry('open_sessions', id)).toMatchObject({ attempt: 1, due_at: deadline });
    expect((await sessions.findForApplicant(id))?.status).toBe('PENDING');
    expect(await sessions.insertOnce(session(id))).toBe(false);
    expect(await connection.collection('open_sessions').countDocuments({ _id: id as never })).toBe(1);
  });

  it('removes the owed ledger entry once it is written, and the pending webhook once its settlement is copied', async () => {
    const id = newSessionId();
    await sessions.insert(session(id));
    await sessions.transitionBySystem(id, ['PENDING'], decision(`cred_${id}`));
    await sessions.ledgerWritten(id, 1);
    expect(await entry('pending_ledger_entries', id)).toBeNull();
    expect(await sessions.ledgerPending()).not.toContain(id);
    await outbox.applySettlement(id, 0, 'delivered', 1);
    expect(await entry('pending_webhooks', id)).toBeNull();
    expect((await outbox.listPending(1000)).map((e) => e._id)).not.toContain(id);
  });

  it('gives the expiry sweep the open sessions past their deadline, not the submitted ones, and drops entries of sessions closed behind its back', async () => {
    const past = new Date(Date.now() - 1_000);
    const [due, submitted, closed, notYet] = [newSessionId(), newSessionId(), newSessionId(), newSessionId()];
    for (const id of [due, submitted, closed]) await sessions.insert(session(id, { expires_at: past }));
    await sessions.insert(session(notYet));
    await sessions.requestDecision(submitted, new Date());
    // Closed without the repository (a crash between the session write and the entry's removal).
    await sessionModel(connection).updateOne({ _id: closed }, { $set: { status: 'EXPIRED' } });
    const ids = await sessions.dueForExpiry(new Date(), 1000);
    expect(ids).toContain(due);
    expect(ids).not.toEqual(arrayContaining([submitted]));
    expect(ids).not.toEqual(arrayContaining([closed]));
    expect(ids).not.toEqual(arrayContaining([notYet]));
    expect(await entry('open_sessions', closed)).toBeNull();
    expect((await sessions.awaitingDecision()).map((s) => s._id)).toContain(submitted);
  });

  it('keeps a fresh entry whose session write has not landed (yet), and drops it only past its grace', async () => {
    const id = newSessionId();
    await sessions.insert(session(id));
    // The entry is written ahead of the decision; the process dies before the decision is written.
    await sessions.inFlight.webhooks.track(id, 1, 0);
    expect((await outbox.listPending(1000)).map((e) => e._id)).not.toContain(id);
    expect(await entry('pending_webhooks', id)).not.toBeNull();
    await sessions.inFlight.webhooks.listPending(1000, new Date(Date.now() + ENTRY_GRACE_MS + 1_000));
    expect(await entry('pending_webhooks', id)).toBeNull();
  });

  it("lists a session's delivery attempts through its keyed entry, oldest first, and none of another session's", async () => {
    const log = new DeliveryLogRepository(connection);
    await log.init();
    const [mine, other] = [newSessionId(), newSessionId()];
    const base = {
      account_id: 'acct_a',
      environment: 'production' as const,
      delivery_id: 'dlv_y',
      round: 0,
      status_code: 200,
      latency_ms: 3,
      error: null,
      result: 'delivered' as const,
    };
    await Promise.all([
      log.record({ ...base, session_id: mine, attempt: 2, attempted_at: new Date(2_000) }),
      log.record({ ...base, session_id: mine, attempt: 1, attempted_at: new Date(1_000) }),
      log.record({ ...base, session_id: other, attempt: 1, attempted_at: new Date(1_500) }),
    ]);
    expect((await log.listForSession(mine)).map((a) => [a.session_id, a.attempt])).toEqual([
      [mine, 1],
      [mine, 2],
    ]);
    expect(
      (await connection.collection('webhook_delivery_attempts_by_session').findOne({ _id: mine as never }))
        ?.attempt_ids,
    ).toHaveLength(2);
  });

  it('sends `sessions` no filter but {_id} from the expiry, decision, outbox and billing sweeps', async () => {
    const watched = await mongoose
      .createConnection(isolatedTestEnv().MONGODB_URI, { monitorCommands: true })
      .asPromise();
    try {
      const repo = new SessionRepository(watched, sessions.vault);
      const watchedOutbox = new WebhookOutboxRepository(sessionModel(watched), sessions.vault);
      const [expired, submitted, decided] = [newSessionId(), newSessionId(), newSessionId()];
      await repo.insert(session(expired, { expires_at: new Date(Date.now() - 1_000) }));
      await repo.insert(session(submitted, { expires_at: new Date(Date.now() - 1_000) }));
      await repo.requestDecision(submitted, new Date());
      await repo.insert(session(decided));
      await repo.transitionBySystem(decided, ['PENDING'], decision(`cred_${decided}`));
      const filters: unknown[] = [];
      watched.getClient().on('commandStarted', (event) => {
        const command = event.command as Record<string, unknown>;
        if (command[event.commandName] !== 'sessions') return;
        if (event.commandName === 'find' || event.commandName === 'count')
          filters.push(command.filter ?? command.query ?? {});
        for (const op of ((command.updates ?? command.deletes) as Array<{ q: unknown }> | undefined) ?? [])
          filters.push(op.q);
        if (event.commandName === 'aggregate') filters.push(command.pipeline);
      });
      expect(await repo.dueForExpiry(new Date(), 1000)).toContain(expired);
      expect((await repo.awaitingDecision()).map((s) => s._id)).toContain(submitted);
      expect(await repo.ledgerPending()).toContain(decided);
      expect((await watchedOutbox.listPending(1000)).map((e) => e._id)).toContain(decided);
      expect(await watchedOutbox.countPending()).toBeGreaterThanOrEqual(1);
      expect(filters.length).toBeGreaterThanOrEqual(4);
      for (const filter of filters) expect(Object.keys(filter as object)).toEqual(['_id']);
    } finally {
      await watched.close();
    }
  });

  it('takes in, once, the sessions stored before the in-flight collections existed', async () => {
    const raw = sessionModel(connection).collection;
    const [open, owed, history] = [newSessionId(), newSessionId(), newSessionId()];
    await raw.insertMany([
      { ...session(open, { expires_at: new Date(Date.now() - 1_000) }) },
      {
        ...session(owed, {
          status: 'VERIFIED',
          webhook_state: 'pending',
          ledger_pending: true,
          credential_token: `cred_${owed}`,
        }),
      },
      { ...session(history, { status: 'VERIFIED', webhook_state: 'delivered' }) },
    ] as never[]);
    const attempt = (id: string, at: number) => ({
      _id: id,
      session_id: owed,
      account_id: 'acct_a',
      environment: 'production',
      delivery_id: 'dlv_x',
      round: 0,
      attempt: at,
      attempted_at: new Date(Date.now() + at),
      status_code: 500,
      latency_ms: 5,
      error: null,
      result: 'retry_scheduled',
    });
    await connection
      .collection('webhook_delivery_attempts')
      .insertMany([attempt('att_before_2', 2), attempt('att_before_1', 1)] as never[]);
    expect(await sessions.dueForExpiry(new Date(), 1000)).not.toContain(open);
    expect(await backfillInFlight(connection, sessions.inFlight)).toBeGreaterThanOrEqual(2);
    expect(await sessions.dueForExpiry(new Date(), 1000)).toContain(open);
    expect((await outbox.listPending(1000)).map((e) => e._id)).toContain(owed);
    expect(await sessions.ledgerPending()).toContain(owed);
    expect((await sessions.findByCredentialToken(`cred_${owed}`))?._id).toBe(owed);
    expect(await entry('pending_webhooks', history)).toBeNull();
    expect(await backfillInFlight(connection, sessions.inFlight)).toBeNull();
    expect((await new DeliveryLogRepository(connection).listForSession(owed)).map((a) => a._id)).toEqual([
      'att_before_1',
      'att_before_2',
    ]);
    // After the backfill an unknown token is answered from the keyed collection alone.
    expect(await sessions.findByCredentialToken('cred_unknown')).toBeNull();
  });
});
