/**
 * The Android SDK's Maven build (sdk/android), run as CI runs everything: the core's unit tests,
 * then its end-to-end tests against the real stack started here (FerretDB, Redis, the inference
 * service on the real models, the API and a worker): whole sandbox verifications through the
 * capture API, the chip upload answering the server's challenge with a test chip's key, the chip
 * read by the SDK's ChipReader over the simulated chip and decided by the server, and a
 * production session's paced liveness, reading status, result and report over REST (the report
 * with the SDK's capture-integrity device block, client android). Maven's local repository is the ignored
 * .state/m2, so a fresh clone downloads the SDK's dependencies once (see sdk/android/README.md).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CaptureStack } from '../../api/test/capture/support/capture-stack';
import { TESTDATA } from '../../api/test/capture/support/applicant-files';
import { SyntheticHead } from '../../scripts/test-support/paced-performer';

const ROOT = path.resolve(__dirname, '../..');
const SDK = __dirname;

interface MavenRun {
  code: number | null;
  output: string;
}

function maven(args: string[], env: Record<string, string>): Promise<MavenRun> {
  return new Promise((resolve, reject) => {
    // Under the local repository's lock, which `npm test`'s background prefetch holds while it fills it.
    const mvn = ['mvn', '-B', '-ntp', `-Dmaven.repo.local=${path.join(ROOT, '.state/m2')}`, ...args];
    const child = spawn('flock', [path.join(ROOT, '.state/m2.lock'), ...mvn], {
      cwd: SDK,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The synthetic head the paced end-to-end test shows the SDK (GET /frame?yaw=&pitch=&mouth=, a
 * JPEG): rendered here, as the API's paced test renders it, because the SDK's test only decides
 * the pose, live, from the step the server revealed and the time since.
 */
async function headRenderer(): Promise<{ server: Server; url: string }> {
  const head = new SyntheticHead(true);
  await head.frame({ yaw: 0, pitch: 0, mouth: 0 });
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://renderer').searchParams;
    const pose = {
      yaw: Number(query.get('yaw')),
      pitch: Number(query.get('pitch')),
      mouth: Number(query.get('mouth')),
    };
    if (!Object.values(pose).every(Number.isFinite) || Math.abs(pose.yaw) > 60 || Math.abs(pose.pitch) > 40) {
      res.writeHead(400).end();
      return;
    }
    head.frame(pose).then(
      (jpeg) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface SuiteCounts {
  tests: number;
  skipped: number;
  failures: number;
  errors: number;
}

/** Surefire's counts for each test class of a module, from its XML reports. */
function surefire(module: string): Record<string, SuiteCounts> {
  const dir = path.join(SDK, module, 'target/surefire-reports');
  const suites: Record<string, SuiteCounts> = {};
  for (const file of readdirSync(dir).filter((f) => f.startsWith('TEST-') && f.endsWith('.xml'))) {
    const head = /<testsuite [^>]*>/.exec(readFileSync(path.join(dir, file), 'utf8'))?.[0] ?? '';
    const count = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head)?.[1] ?? NaN);
    suites[file.slice('TEST-'.length, -'.xml'.length)] = {
      tests: count('tests'),
      skipped: count('skipped'),
      failures: count('failures'),
      errors: count('errors'),
    };
  }
  return suites;
}

/** Every class of a module ran all its tests: none skipped, failed or errored. */
function allPassed(suites: Record<string, SuiteCounts>) {
  return Object.entries(suites).map(([name, c]) => ({ name, ...c, tests: c.tests > 0 }));
}
const passed = (name: string) => ({ name, tests: true, skipped: 0, failures: 0, errors: 0 });

describe('the Android SDK (Maven: core and Robolectric tests, end-to-end against the real stack, AAR, dex)', () => {
  let stack: CaptureStack;
  let renderer: { server: Server; url: string };
  beforeAll(async () => {
    renderer = await headRenderer();
    // Production sessions need an https webhook on a public address; the paced test's leads nowhere (127.0.0.1).
    stack = await CaptureStack.start({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  }, 240_000);
  afterAll(async () => {
    renderer?.server.close();
    await stack?.stop();
  }, 60_000);

  it('builds the core and the AAR, passes unit, contract-vector, Robolectric, simulated-chip and end-to-end tests (VERIFIED, NAME_MISMATCH, chip upload, the chip read through the simulated chip decided PASS and CHIP_CLONE_SUSPECTED, paced liveness), dexes at min SDK 24', async () => {
    // The chip simulator's test reads the synthetic chips that setup.sh generates (npm run testdata:chip).
    const chipTestdata = `-Dbioverify.chip.testdata=${path.join(ROOT, '.state/testdata/chip')}`;
    const run = await maven(['clean', 'verify', chipTestdata], {
      BIOVERIFY_E2E_BASE_URL: stack.baseUrl,
      BIOVERIFY_E2E_API_KEY: stack.apiKey,
      BIOVERIFY_E2E_WEBHOOK_URL: stack.stack.receiver.url(),
      BIOVERIFY_E2E_TESTDATA: TESTDATA,
      BIOVERIFY_E2E_CHIP_TESTDATA: path.join(ROOT, '.state/testdata/chip'),
      BIOVERIFY_E2E_LIVE_API_KEY: (stack.stack.account as unknown as { live_api_key: string }).live_api_key,
      BIOVERIFY_E2E_HEAD_URL: renderer.url,
    });
    if (run.code !== 0) throw new Error(`mvn verify exited ${String(run.code)}:\n${run.output.slice(-20_000)}`);

    const core = surefire('core');
    // The end-to-end class is skipped without the stack's variables: here it must have run, all six
    // tests (VERIFIED, NAME_MISMATCH, the chip upload, a malformed chip refused, the paced challenge
    // replayed and followed live).
    expect(core['dev.bioverify.capture.e2e.EndToEndVerificationTest']).toEqual({
      tests: 6,
      skipped: 0,
      failures: 0,
      errors: 0,
    });
    expect(allPassed(core)).toEqual(Object.keys(core).map(passed));
    expect(Object.keys(core)).toContain('dev.bioverify.capture.ContractVectorsTest');
    expect(Object.keys(core)).toContain('dev.bioverify.capture.PacedLivenessTest');
    expect(Object.keys(core)).toContain('dev.bioverify.capture.IntegritySignalsTest');

    const android = surefire('android');
    expect(Object.keys(android).sort()).toEqual([
      'dev.bioverify.android.AndroidDeviceFactsTest',
      'dev.bioverify.android.DeviceReadinessTest',
      'dev.bioverify.android.FlowScreensTest',
      'dev.bioverify.android.chip.ChipDecisionEndToEndTest',
      'dev.bioverify.android.chip.ChipReaderSimulatedChipTest',
    ]);
    // Skipped without the stack's variables: here both must have run (a genuine ID card's chip read
    // through the SDK VERIFIED with document_chip PASS, a cloned passport chip CHIP_CLONE_SUSPECTED).
    expect(android['dev.bioverify.android.chip.ChipDecisionEndToEndTest']).toEqual({
      tests: 2,
      skipped: 0,
      failures: 0,
      errors: 0,
    });
    // Skipped without the chip test data: here it must have run, all five tests.
    expect(android['dev.bioverify.android.chip.ChipReaderSimulatedChipTest']).toEqual({
      tests: 5,
      skipped: 0,
      failures: 0,
      errors: 0,
    });
    expect(allPassed(android)).toEqual(Object.keys(android).map(passed));

    // The AAR as Gradle consumes it, and D8's dex of the library with its runtime (animal-sniffer ran in verify).
    const repo = path.join(SDK, 'android/target/repository/dev/bioverify/bioverify-android/0.1.0');
    const entries = execFileSync('unzip', ['-Z1', path.join(repo, 'bioverify-android-0.1.0.aar')], {
      encoding: 'utf8',
    });
    expect(entries.trim().split('\n').sort()).toEqual(['AndroidManifest.xml', 'R.txt', 'classes.jar']);
    expect(readFileSync(path.join(repo, 'bioverify-android-0.1.0.pom'), 'utf8')).toContain(
      '<packaging>aar</packaging>',
    );
    expect(statSync(path.join(SDK, 'android/target/dex/classes.dex')).size).toBeGreaterThan(100_000);
  }, 1_500_000);
});
