import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { call, validSession } from './support/http';
import type { CreatedSession, SessionResult } from './support/api-bodies';
import { failureOf } from './support/command-failure';
import { startTestApi, TestApi, IssuedAccount } from './support/test-api';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/** The one JSON object the CLI prints: a whole account when created, the rotated part when rotated. */
const printed = (stdout: string) => JSON.parse(stdout) as IssuedAccount;
const rotation = (stdout: string) => JSON.parse(stdout) as Partial<IssuedAccount>;

describe('admin CLI (npm run admin -- ...)', () => {
  let api: TestApi;
  const admin = (...args: string[]) =>
    run(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'api/src/entry-points/cli/admin.ts'), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        MONGODB_URI: api.config.MONGODB_URI,
        SECRET_ENCRYPTION_KEY: api.config.SECRET_ENCRYPTION_KEY,
        PII_MASTER_KEYS: api.config.PII_MASTER_KEYS,
        REDIS_URL: api.config.REDIS_URL,
        REDIS_PREFIX: api.config.REDIS_PREFIX,
      },
    });

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.stop());

  it('creates an account and prints exactly one JSON object with its keys and webhook secret, its screening SKIPPED with no list loaded', async () => {
    const { stdout } = await admin('accounts', 'create', '--name', 'Acme', '--plan', 'growth', '--watchlist');
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const issued = printed(lines[0]);
    expect(Object.keys(issued).sort()).toEqual(['account_id', 'live_api_key', 'sandbox_api_key', 'webhook_secret']);
    expect(issued.sandbox_api_key).toMatch(/^vk_sand_[0-9A-Za-z]{32,}$/);
    expect(issued.live_api_key).toMatch(/^vk_live_[0-9A-Za-z]{32,}$/);
    expect(Buffer.from(issued.webhook_secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);

    const created = await call<CreatedSession>(api.baseUrl, 'POST', '/v1/sessions', {
      key: issued.sandbox_api_key,
      body: validSession(),
    });
    expect(created.status).toBe(201);
    const result = await call<SessionResult>(api.baseUrl, 'POST', `/v1/sessions/${created.json.session_id}/simulate`, {
      key: issued.sandbox_api_key,
      body: { outcome: 'VERIFIED' },
    });
    // No list is loaded in this database, so the add-on answers SKIPPED, never an unscreened CLEAR.
    expect(result.json.checks.sanctions).toBe('SKIPPED');
  });

  it('rotates a key: the new one works and the old one stops at once without a grace period, though the API had it cached', async () => {
    const issued = printed((await admin('accounts', 'create', '--name', 'Rotator')).stdout);
    // Used twice first: the API then serves this key from its cache.
    for (let i = 0; i < 2; i += 1)
      expect((await call(api.baseUrl, 'GET', '/v1/pricing/FR', { key: issued.sandbox_api_key })).status).toBe(200);
    const rotated = rotation(
      (await admin('accounts', 'rotate-key', '--account', issued.account_id, '--environment', 'sandbox')).stdout,
    );
    expect(rotated.sandbox_api_key).not.toBe(issued.sandbox_api_key);
    const oldKey = await call(api.baseUrl, 'GET', '/v1/pricing/FR', { key: issued.sandbox_api_key });
    const newKey = await call(api.baseUrl, 'GET', '/v1/pricing/FR', { key: rotated.sandbox_api_key });
    const otherEnvironment = await call(api.baseUrl, 'GET', '/v1/pricing/FR', { key: issued.live_api_key });
    expect([oldKey.status, newKey.status, otherEnvironment.status]).toEqual([401, 200, 200]);
  });

  it('keeps the old key working during a rotation grace period', async () => {
    const issued = printed((await admin('accounts', 'create', '--name', 'Graceful')).stdout);
    await admin(
      'accounts',
      'rotate-key',
      '--account',
      issued.account_id,
      '--environment',
      'production',
      '--grace-hours',
      '24',
    );
    expect((await call(api.baseUrl, 'GET', '/v1/pricing/FR', { key: issued.live_api_key })).status).toBe(200);
  });

  it('rotates the webhook secret and prints the new one once', async () => {
    const issued = printed((await admin('accounts', 'create', '--name', 'Secretive')).stdout);
    const rotated = rotation((await admin('accounts', 'rotate-webhook-secret', '--account', issued.account_id)).stdout);
    expect(rotated.webhook_secret).toMatch(/^whsec_/);
    expect(rotated.webhook_secret).not.toBe(issued.webhook_secret);
  });

  it('fails with a message and a non-zero code for an unknown plan or account, printing nothing on stdout', async () => {
    const badPlan = await failureOf(admin('accounts', 'create', '--name', 'X', '--plan', 'gold'));
    expect(badPlan.code).toBe(65);
    expect(badPlan.stdout).toBe('');
    expect(badPlan.stderr).toContain('Unknown plan');
    const noAccount = await failureOf(admin('accounts', 'rotate-webhook-secret', '--account', 'acct_missing'));
    expect(noAccount.code).toBe(65);
  });

  it("sets an account's known_face policy to fail, refusing any other value", async () => {
    const issued = printed((await admin('accounts', 'create', '--name', 'Strict')).stdout);
    const set = (policy: string) =>
      admin('accounts', 'set-policy', '--account', issued.account_id, '--known-face', policy);
    expect(JSON.parse((await set('fail')).stdout)).toEqual({
      account_id: issued.account_id,
      known_face_policy: 'fail',
    });
    const bad = await failureOf(set('block'));
    expect(bad.code).toBe(65);
    expect(bad.stderr).toContain('--known-face must be report or fail');
  }, 120_000);

  it("sets an account's capture-integrity policy, refusing a policy it does not know or an unknown account", async () => {
    const issued = printed((await admin('accounts', 'create', '--name', 'Strict')).stdout);
    const set = await admin('accounts', 'set-capture-integrity', '--account', issued.account_id, '--policy', 'fail');
    expect(JSON.parse(set.stdout)).toEqual({ account_id: issued.account_id, capture_integrity_policy: 'fail' });
    const unknown = await failureOf(
      admin('accounts', 'set-capture-integrity', '--account', issued.account_id, '--policy', 'block'),
    );
    expect(unknown).toMatchObject({ code: 65, stdout: '' });
    expect(unknown.stderr).toContain('--policy must be one of report, fail');
    const missing = await failureOf(
      admin('accounts', 'set-capture-integrity', '--account', 'acct_missing', '--policy', 'report'),
    );
    expect(missing.code).toBe(65);
  });
});
