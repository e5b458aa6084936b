/**
 * A native SDK's integrity signals (docs/capture-integrity.md, "Native SDKs") through the capture API
 * on the real stack (FerretDB, Redis, the inference service on the real models, the API and a
 * worker), with production keys: an android upload that says it runs in an emulator fails the
 * session under the account's `fail` policy, and is only reported under `report`.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { CaptureClient } from './support/capture-client';
import { CaptureStack } from './support/capture-stack';
import { documentOf, selfieOf } from './support/applicant-files';
import { performChallenge, SyntheticHead } from '../../../scripts/test-support/paced-performer';
import { issueAccount } from '../../../scripts/test-support/account-bootstrap';
import type { Schemas } from '../support/api-bodies';
import { androidSignals, frontCamera } from '../../src/domain/capture/native-signals.fixture';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const APPLICANT = 'grace-hopper';

interface ReportCheck {
  verdict: string;
  reason: string | null;
  scores: Array<{ name: string; value: number; threshold: number }>;
}

const emulatorSignals = androidSignals(
  { emulator: true },
  { ...frontCamera, device_type: 'limited', frame_timing: { ...frontCamera.frame_timing, jitter_ms: 1.1 } },
);

describe("a native SDK's integrity signals (production sessions, real models)", () => {
  let stack: CaptureStack;
  beforeAll(async () => {
    stack = await CaptureStack.start({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  }, 240_000);
  afterAll(async () => stack?.stop(), 60_000);

  /** A new account (its captures new to it, its policy its own), with the policy set through the admin CLI. */
  async function accountWithPolicy(name: string, policy: 'report' | 'fail'): Promise<string> {
    const account = await issueAccount(stack.stack.store, stack.stack.env, { name });
    const set = await run(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      [
        path.join(ROOT, 'api/src/entry-points/cli/admin.ts'),
        'accounts',
        'set-capture-integrity',
        '--account',
        account.account_id,
        '--policy',
        policy,
      ],
      { cwd: ROOT, env: { ...process.env, ...stack.stack.env } },
    );
    expect(JSON.parse(set.stdout)).toEqual({ account_id: account.account_id, capture_integrity_policy: policy });
    return account.live_api_key;
  }

  /** A production session captured through the paced challenge after the android signals were sent, and decided. */
  async function captureFromAnEmulator(apiKey: string) {
    const passport = documentOf('TD3', 'clean', APPLICANT);
    const id = await stack.session(
      { expected_name: passport.label.expected.fields.name, webhook_url: 'https://127.0.0.1:9/hook' },
      apiKey,
    );
    const client = new CaptureClient(stack.baseUrl, id);
    expect((await client.start()).body).toMatchObject({ liveness_mode: 'paced' });
    expect(await client.integrity(emulatorSignals)).toEqual({ status: 200, body: { recorded: true } });
    // On a loaded machine the synthetic head may miss a step's deadline: the server then restarts the challenge.
    let next = (await performChallenge(client, new SyntheticHead(true))).next;
    for (let restarts = 0; next === 'restart' && restarts < 2; restarts++)
      next = (await performChallenge(client, new SyntheticHead(true))).next;
    expect(next).toBe('selfie');
    expect((await client.document('front', 'passport', passport.image)).body).toMatchObject({ readable: true });
    expect((await client.selfie(selfieOf(APPLICANT))).status).toBe(200);
    expect((await client.submit()).status).toBe(202);
    expect((await client.decided(180_000)).decision).toBe('done');
    const result = await stack.api<{ status: string; failure_reason: string | null }>(
      'GET',
      `/v1/sessions/${id}/result`,
      apiKey,
    );
    const report = await stack.api<Schemas['EvidenceReport']>('GET', `/v1/sessions/${id}/report`, apiKey);
    return { result: result.body, checks: report.body.checks as unknown as Record<string, ReportCheck> };
  }

  const score = (check: ReportCheck, name: string) => check.scores.find((s) => s.name === name);

  // The two production captures follow the paced challenge in real time, mostly waiting on its
  // steps: they run side by side from the start and each test awaits its own.
  type Captured = Awaited<ReturnType<typeof captureFromAnEmulator>>;
  let underFail: Promise<Captured>;
  let underReport: Promise<Captured>;
  beforeAll(() => {
    underFail = accountWithPolicy('Native fail', 'fail').then(captureFromAnEmulator);
    underReport = accountWithPolicy('Native report', 'report').then(captureFromAnEmulator);
    // Each test awaits its own capture; this only keeps a failure from counting as unhandled before then.
    for (const capture of [underFail, underReport]) capture.catch(() => undefined);
  });

  it('refuses a web body carrying the native block, and native facts of the wrong type, with 422 naming each field', async () => {
    const apiKey = await accountWithPolicy('Native refusals', 'report');
    const id = await stack.session({ expected_name: 'GRACE HOPPER', webhook_url: 'https://127.0.0.1:9/hook' }, apiKey);
    const client = new CaptureClient(stack.baseUrl, id);
    await client.start();
    const fromTheWeb = await client.integrity({ ...emulatorSignals, client: 'web' });
    expect(fromTheWeb.status).toBe(422);
    expect(fromTheWeb.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(fromTheWeb.body.error?.details?.map((d) => d.field)).toEqual(['native']);
    const wrongTypes = await client.integrity({
      ...emulatorSignals,
      native: { ...emulatorSignals.native, device: { ...emulatorSignals.native.device, emulator: 'yes', imei: '35' } },
    });
    expect(wrongTypes.status).toBe(422);
    expect(wrongTypes.body.error?.details?.map((d) => d.field).sort()).toEqual([
      'native.device.emulator',
      'native.device.imei',
    ]);
  }, 120_000);

  it("fails a production session from an emulator with CAPTURE_TAMPERED under the account's 'fail' policy", async () => {
    const { result, checks } = await underFail;
    expect(result).toMatchObject({ status: 'FAILED', failure_reason: 'CAPTURE_TAMPERED' });
    expect(checks.liveness.verdict).toBe('FAIL');
    expect(score(checks.liveness, 'capture_integrity_flags')?.value).toBe(1);
    expect(checks.capture_integrity).toMatchObject({
      verdict: 'FAIL',
      reason: 'CAPTURE_TAMPERED',
      integrity: {
        policy: 'fail',
        enforced: true,
        flags: ['emulator'],
        notes: [],
        signals: { client: 'android', webdriver: null, native: emulatorSignals.native },
      },
    });
    expect(score(checks.capture_integrity, 'emulator')?.value).toBe(1);
    expect(score(checks.capture_integrity, 'debugger_attached')?.value).toBe(0);
  }, 300_000);

  it("only reports the emulator under the 'report' policy: the session is decided on its own checks", async () => {
    const { result, checks } = await underReport;
    // The synthetic head's own checks decide the status (it is a rigid mask, and may fail on them); the emulator never does.
    expect(['VERIFIED', 'FAILED']).toContain(result.status);
    expect(result.failure_reason).not.toBe('CAPTURE_TAMPERED');
    expect(checks.liveness.reason).not.toBe('CAPTURE_TAMPERED');
    expect(score(checks.liveness, 'capture_integrity_flags')).toBeUndefined();
    expect(checks.capture_integrity).toMatchObject({
      verdict: 'FAIL',
      reason: 'CAPTURE_TAMPERED',
      integrity: { policy: 'report', enforced: false, flags: ['emulator'] },
    });
  }, 300_000);
});
