import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FuzzStack, startFuzzStack } from './fuzz-stack';
import { runSchemathesis } from './schemathesis';

/**
 * A short, seeded Schemathesis run (the full one is `npm run fuzz`): every operation of the served
 * document, every phase, stateful links included; no 5xx, every response as documented and within
 * its deadline, and the API process still up at the end.
 */
describe('property-based fuzzing of the whole API (bounded)', () => {
  let stack: FuzzStack;
  const reportDir = mkdtempSync(path.join(tmpdir(), 'bioverify-fuzz-report-'));

  beforeAll(async () => {
    stack = await startFuzzStack();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(reportDir, { recursive: true, force: true });
  });

  it('finds no server error, no response off its schema and no hang', async () => {
    const result = await runSchemathesis({
      baseUrl: stack.baseUrl,
      apiKey: stack.apiKey,
      maxExamples: 2,
      maxResponseSeconds: 10,
      reportDir,
      seed: 7,
    });
    expect(result.failures).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.cases).toBeGreaterThan(200);
    expect(stack.apiAlive()).toBe(true);
  }, 300_000);
});
