import { Connection } from 'mongoose';
import { connectMongo } from '../src/data-access/mongo-connection';
import { SessionDocument } from '../src/data-access/session.model';
import { ClaimRecoveryRepository } from '../src/data-access/claim-recovery.repository';
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
});
