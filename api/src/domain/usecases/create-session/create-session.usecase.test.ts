import { createLogger } from '../../../shared/logger';
import { Tenant } from '../../environment';
import { Session } from '../../session/session';
import { createSession, CreateSessionCommand, CreateSessionDeps } from './create-session.usecase';

const tenant: Tenant = {
  accountId: 'acct_a',
  environment: 'production',
  keyId: 'key_a',
  watchlist: false,
  plan: 'enterprise',
};
const command: CreateSessionCommand = {
  return_url: 'https://example.com/done',
  webhook_url: 'https://example.com/hook',
  expected_name: 'Jane Doe',
  metadataJson: null,
};
const NOW = new Date('2026-11-27T12:00:00Z');
const STORED_DEADLINE = new Date('2026-11-27T11:50:00Z');

/** The ports as a log of what was called, in order; the insert answers when the test says so. */
function harness(insert: 'creates' | 'exists' | 'fails') {
  const calls: string[] = [];
  let landInsert!: () => void;
  const insertLanded = new Promise<void>((resolve) => (landInsert = resolve));
  const deps: CreateSessionDeps = {
    sessions: {
      insertOnce: async (session: Session) => {
        calls.push(`insert ${session._id}`);
        await insertLanded;
        calls.push('insert landed');
        if (insert === 'fails') throw new Error('store unavailable');
        return insert === 'creates';
      },
      forTenant: () => ({
        get: (id) => Promise.resolve({ _id: id, expires_at: STORED_DEADLINE } as Session),
        transition: () => Promise.reject(new Error('not used')),
      }),
    },
    queue: {
      assertWritable: () => Promise.resolve(void calls.push('queue checked')),
      scheduleExpiry: (id, at) => Promise.resolve(void calls.push(`expiry ${id} at ${at.toISOString()}`)),
    },
    usage: { recordSessionCreation: (keyId) => Promise.resolve(void calls.push(`usage ${keyId}`)) },
    webhookPolicy: { refuse: () => Promise.resolve(null) },
    clock: { now: () => NOW },
    logger: createLogger('silent'),
    publicBaseUrl: 'https://verify.example.com',
    expiryMinutes: 30,
  };
  return { deps, calls, landInsert };
}

/** Lets every promise already settled run its continuations. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createSession', () => {
  it("schedules a fresh session's expiry while its store writes are under way, and counts it once they landed", async () => {
    const h = harness('creates');
    const created = createSession(h.deps, tenant, command);
    await settle();
    const [inserting] = h.calls.filter((c) => c.startsWith('insert '));
    const id = inserting.slice('insert '.length);
    expect(h.calls).toEqual(['queue checked', `expiry ${id} at 2026-11-27T12:30:00.000Z`, `insert ${id}`]);
    h.landInsert();
    expect(await created).toMatchObject({ session_id: id, status: 'PENDING', environment: 'production' });
    expect(h.calls.slice(3)).toEqual(['insert landed', 'usage key_a']);
  });

  it('schedules a keyed creation after its insert, at the deadline already stored when it is a re-run', async () => {
    const h = harness('exists');
    const created = createSession(h.deps, tenant, { ...command, reservedSessionId: 'ses_reserved' });
    await settle();
    expect(h.calls).toEqual(['queue checked', 'insert ses_reserved']);
    h.landInsert();
    expect((await created).session_id).toBe('ses_reserved');
    expect(h.calls.slice(2)).toEqual([
      'insert landed',
      'expiry ses_reserved at 2026-11-27T11:50:00.000Z',
      'usage key_a',
    ]);
  });

  it('schedules a first keyed creation at its own deadline once the insert created it', async () => {
    const h = harness('creates');
    h.landInsert();
    await createSession(h.deps, tenant, { ...command, reservedSessionId: 'ses_reserved' });
    expect(h.calls).toEqual([
      'queue checked',
      'insert ses_reserved',
      'insert landed',
      'expiry ses_reserved at 2026-11-27T12:30:00.000Z',
      'usage key_a',
    ]);
  });

  it('counts nothing and answers the error when the session write fails (the early timer finds no session to expire)', async () => {
    const h = harness('fails');
    h.landInsert();
    await expect(createSession(h.deps, tenant, command)).rejects.toThrow('store unavailable');
    expect(h.calls.filter((c) => c.startsWith('usage'))).toEqual([]);
  });

  it('answers for the session when its timer could not be scheduled (the expiry sweep covers it)', async () => {
    const h = harness('creates');
    h.deps.queue.scheduleExpiry = () => Promise.reject(new Error('redis timeout'));
    h.landInsert();
    expect((await createSession(h.deps, tenant, command)).status).toBe('PENDING');
    expect(h.calls).toContain('usage key_a');
  });
});
