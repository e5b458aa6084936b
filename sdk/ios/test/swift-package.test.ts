/**
 * The iOS SDK's core, built and tested on Linux: sdk/ios/scripts/swift-tree.sh makes (once, under
 * .state/) a Debian 13 tree with Swift, and runs `swift build` and `swift test` there against the
 * repository. Its end-to-end test drives a whole sandbox verification through this real stack
 * (FerretDB, Redis, the inference service on the real models, the API and a worker) on 127.0.0.1,
 * with the project's generated test applicant, and reads the final status over REST.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CaptureStack } from '../../../api/test/capture/support/capture-stack';
import { documentOf, livenessOf, selfieOf } from '../../../api/test/capture/support/applicant-files';
import { PINNED, reportOf, resultOf } from '../../../api/test/capture/support/captured-applicant';

const PACKAGE = path.resolve(__dirname, '..');
const TREE_SCRIPT = path.join(PACKAGE, 'scripts/swift-tree.sh');

/** Runs the tree script to its end, answering its exit code and everything it printed. */
function runSwiftTree(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [TREE_SCRIPT], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Copies the applicant's files where the tree sees them (the repository is mounted at /repo). */
function writeFixture(dir: string, stack: CaptureStack): string {
  const passport = documentOf('TD3', 'clean', 'astronaut');
  const liveness = livenessOf('astronaut', 'synthetic-performs-challenge');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'document.jpg'), passport.image);
  writeFileSync(path.join(dir, 'selfie.jpg'), selfieOf('astronaut'));
  const frames = liveness.frames.map((frame, i) => {
    const name = `pose-${String(i).padStart(2, '0')}.jpg`;
    writeFileSync(path.join(dir, name), frame);
    return name;
  });
  const name = passport.label.expected.fields.name;
  writeFileSync(
    path.join(dir, 'fixture.json'),
    JSON.stringify({
      session_request: {
        return_url: 'https://example.com/done',
        webhook_url: stack.stack.receiver.url(),
        expected_name: name,
        sandbox: { liveness_challenge: PINNED },
      },
      document: 'document.jpg',
      document_type: 'passport',
      liveness: { challenge: liveness.challenge, frames },
      selfie: 'selfie.jpg',
      expected_name: name,
    }),
  );
  return name;
}

describe('the iOS SDK core (Swift, in a Debian 13 tree) against the real stack', () => {
  let stack: CaptureStack;
  const fixtures = path.join(PACKAGE, '.e2e-fixtures', `run-${process.pid}`);
  beforeAll(async () => {
    stack = await CaptureStack.start();
  }, 240_000);
  afterAll(async () => {
    rmSync(fixtures, { recursive: true, force: true });
    await stack?.stop();
  }, 60_000);

  it('builds BioverifyCore, passes its tests, and verifies an applicant end to end through the SDK', async () => {
    const expectedName = writeFixture(fixtures, stack);
    const { code, output } = await runSwiftTree({
      BIOVERIFY_E2E_BASE_URL: stack.baseUrl,
      BIOVERIFY_E2E_API_KEY: stack.apiKey,
      BIOVERIFY_E2E_FIXTURES: path.relative(PACKAGE, fixtures),
      BIOVERIFY_E2E_WEBHOOK_URL: stack.stack.receiver.url(),
    });
    // The whole log stays beside the build for reading after a run (.build is ignored).
    mkdirSync(path.join(PACKAGE, '.build'), { recursive: true });
    writeFileSync(path.join(PACKAGE, '.build', 'swift-tree-output.log'), output);
    if (code !== 0) throw new Error(`swift-tree.sh exited ${code}:\n${output.slice(-12_000)}`);
    expect(output).toMatch(/Executed \d+ tests, with 0 failures/);
    expect(output).not.toMatch(/Test Case .* skipped/);
    expect(output).toMatch(/contract vectors: [1-9]\d* capture sequences passed against the live server/);
    expect(output).toMatch(/contract vectors: [1-9]\d* error cases passed against the live server/);

    // The session the Swift test verified, read back here with the account's key.
    const sessionId = /BIOVERIFY_E2E_VERIFIED (ses_[0-9A-Za-z]+)/.exec(output)?.[1];
    expect(sessionId).toBeDefined();
    const result = await resultOf(stack, sessionId ?? '');
    expect(result).toMatchObject({ status: 'VERIFIED', person: { name: expectedName, document_type: 'passport' } });
    // The SDK's integrity signals, sent before submit, are on record as an iOS client's native block.
    const integrity = (await reportOf(stack, sessionId ?? '')).checks.capture_integrity?.integrity;
    expect(integrity?.signals).toMatchObject({
      client: 'ios',
      native: { device: { emulator: true, app_id: 'dev.bioverify.e2e' }, camera: { virtual: true } },
    });
  }, 1_500_000);
});
