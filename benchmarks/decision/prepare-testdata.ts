import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The synthetic sets this benchmark reads are made by the full set-up (`npm test` runs it, `npm
 * start` does not), so a benchmark run straight after `npm start` prepares them itself rather than
 * stopping on a missing file. The set-up is idempotent: when the sets exist this costs nothing.
 */
export function prepareTestData(root: string, log: (line: string) => void): void {
  const needed = ['documents/labels.json', 'liveness/sequences.jsonl'].map((f) =>
    path.join(root, '.state', 'testdata', f),
  );
  if (needed.every((file) => existsSync(file))) return;
  log('synthetic test sets missing: running the full set-up (bash scripts/setup.sh)');
  execFileSync('bash', [path.join(root, 'scripts', 'setup.sh')], { cwd: root, stdio: 'inherit' });
}
