import { Connection } from 'mongoose';
import { connectMongo } from '../src/data-access/mongo-connection';
import { SessionDocument } from '../src/data-access/session.model';
import { ClaimRecoveryRepository } from '../src/data-access/claim-recovery.repository';
import { SessionExpiryRepository } from '../src/data-access/session-expiry.repository';
import { SessionRepository } from '../src/data-access/session.repository';
import { PiiVault } from '../src/data-access/pii-vault';
import { parseMasterKeys } from '../src/shared/master-keys';
import { SessionStatus } from '../src/domain/session-status';
import { newSessionId } from '../src/shared/random-id';
import { isolatedTestEnv } from '../../scripts/test-support/test-env';
import { sessionDocument } from './support/session-document';

const session = (id: string) => sessionDocument(id, { expires_at: new Date() });

describe('session store transitions on the real store (FerretDB or MONGODB_URI)', () => {
  let connection: Connection;
  let sessions: SessionRepository;

  beforeAll(async () => {
    const env = isolatedTestEnv();
    connection = await connectMongo(env.MONGODB_URI);
    sessions = new SessionRepository(connection, new PiiVault(connection, parseMasterKeys(env.PII_MASTER_KEYS)));
    await sessions.init();
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('lets exactly one of 10 racing writers with different targets win, and the stored status is the winner’s', async () => {
    for (let round = 0; round < 10; round += 1) {
      const id = newSessionId();
      await sessions.insert(session(id));
      const targets: SessionStatus[] = [
        'VERIFIED',
        'FAILED',
        'EXPIRED',
        'IN_PROGRESS',
        'FAILED',
        'VERIFIED',
        'EXPIRED',
        'FAILED',
        'VERIFIED',
        'EXPIRED',
      ];
      const outcomes = await Promise.all(
        targets.map((status) => sessions.transitionBySystem(id, ['PENDING'], { status, failure_reason: status })),
      );
      const winners = outcomes.filter((o): o is SessionDocument => o !== null);
      expect(winners).toHaveLength(1);
      const stored = await sessions.findForApplicant(id);
      expect(stored?.status).toBe(winners[0]?.status);
      expect(stored?.failure_reason).toBe(winners[0]?.status);
    }
  });

  it('lets a later transition from the new status proceed (PENDING → IN_PROGRESS → VERIFIED)', async () => {
    const id = newSessionId();
    await sessions.insert(session(id));
    expect((await sessions.transitionBySystem(id, ['PENDING'], { status: 'IN_PROGRESS' }))?.status).toBe('IN_PROGRESS');
    expect((await sessions.transitionBySystem(id, ['PENDING', 'IN_PROGRESS'], { status: 'VERIFIED' }))?.status).toBe(
      'VERIFIED',
    );
    expect(await sessions.transitionBySystem(id, ['PENDING', 'IN_PROGRESS'], { status: 'EXPIRED' })).toBeNull();
  });

  it('completes the write of a writer that died after claiming, so no session is left half-moved', async () => {
    const id = newSessionId();
    await sessions.insert(session(id));
    // A writer that crashed right after its claim: the claim exists, the session was never updated.
    await sessions.claims.create({
      _id: `${id}:PENDING`,
      session_id: id,
      from: 'PENDING',
      to: 'FAILED',
      update: { status: 'FAILED', failure_reason: 'LIVENESS_FAILED' },
      claimed_at: new Date(Date.now() - 60_000),
    });
    expect((await sessions.findForApplicant(id))?.status).toBe('PENDING');
    expect(
      await new ClaimRecoveryRepository(sessions).rollForwardClaimedBetween(
        new Date(Date.now() - 120_000),
        new Date(Date.now() - 30_000),
      ),
    ).toBe(1);
    const stored = await sessions.findForApplicant(id);
    expect(stored).toMatchObject({ status: 'FAILED', failure_reason: 'LIVENESS_FAILED' });
  });

  it('makes a racing writer finish a dead claimant’s write and then report the status it lost to', async () => {
    const id = newSessionId();
    await sessions.insert(session(id));
    await sessions.claims.create({
      _id: `${id}:PENDING`,
      session_id: id,
      from: 'PENDING',
      to: 'EXPIRED',
      update: { status: 'EXPIRED' },
      claimed_at: new Date(),
    });
    expect(await sessions.transitionBySystem(id, ['PENDING'], { status: 'VERIFIED' })).toBeNull();
    expect((await sessions.findForApplicant(id))?.status).toBe('EXPIRED');
  });

  describe('a submit and the expiry of its session, at the deadline', () => {
    const overdue = (id: string) =>
      sessionDocument(id, { status: 'IN_PROGRESS', expires_at: new Date(Date.now() - 1_000) });
    const expiry = () => new SessionExpiryRepository(sessions);

    it('lets an expiry that read the deadline before the submit landed lose to it', async () => {
      const id = newSessionId();
      await sessions.insert(overdue(id));
      expect(await sessions.requestDecision(id, new Date())).toBe(true);
      // The expiry job read the deadline before the submit; it claims the transition only now.
      expect(await expiry().expire(id, new Date())).toBe(false);
      const stored = await sessions.findForApplicant(id);
      expect(stored?.status).toBe('IN_PROGRESS');
      expect(stored?.decision_requested_at).toBeInstanceOf(Date);
      // The expiry's claim was released: the decision can still move the session on.
      expect((await sessions.transitionBySystem(id, ['IN_PROGRESS'], { status: 'VERIFIED' }))?.status).toBe('VERIFIED');
    });

    it('refuses a submit once the session has expired, and leaves it expired', async () => {
      const id = newSessionId();
      await sessions.insert(overdue(id));
      expect(await expiry().expire(id, new Date())).toBe(true);
      expect(await sessions.requestDecision(id, new Date())).toBe(false);
      const stored = await sessions.findForApplicant(id);
      expect(stored?.status).toBe('EXPIRED');
      expect(stored?.decision_requested_at ?? null).toBeNull();
    });

    it('of 20 racing submit and expiry pairs, lets exactly one of each pair win, and the session shows which', async () => {
      for (let round = 0; round < 20; round += 1) {
        const id = newSessionId();
        await sessions.insert(overdue(id));
        const [requested, expired] = await Promise.all([
          sessions.requestDecision(id, new Date()),
          expiry().expire(id, new Date()),
        ]);
        expect(requested).toBe(!expired);
        const stored = await sessions.findForApplicant(id);
        expect(stored?.status).toBe(expired ? 'EXPIRED' : 'IN_PROGRESS');
        expect(Boolean(stored?.decision_requested_at)).toBe(requested);
      }
    });

    it('finishes the request of a submit that died holding its claim, and the expiry then loses', async () => {
      const id = newSessionId();
      await sessions.insert(overdue(id));
      const requestedAt = new Date();
      await sessions.claims.create({
        _id: `${id}:IN_PROGRESS`,
        session_id: id,
        from: 'IN_PROGRESS',
        to: 'IN_PROGRESS',
        update: { decision_requested_at: requestedAt, updated_at: requestedAt },
        claimed_at: requestedAt,
        kind: 'decision-request',
      });
      expect(await expiry().expire(id, new Date())).toBe(false);
      expect((await sessions.findForApplicant(id))?.decision_requested_at?.getTime()).toBe(requestedAt.getTime());
      expect(await sessions.claims.findById(`${id}:IN_PROGRESS`).lean().exec()).toBeNull();
    });

    it('lets the decision through past an expiry that died holding its claim after the submit', async () => {
      const id = newSessionId();
      await sessions.insert(overdue(id));
      expect(await sessions.requestDecision(id, new Date())).toBe(true);
      await sessions.claims.create({
        _id: `${id}:IN_PROGRESS`,
        session_id: id,
        from: 'IN_PROGRESS',
        to: 'EXPIRED',
        update: { status: 'EXPIRED' },
        claimed_at: new Date(),
        unless_decision_requested: true,
      });
      expect((await sessions.transitionBySystem(id, ['IN_PROGRESS'], { status: 'VERIFIED' }))?.status).toBe('VERIFIED');
    });
  });
});
