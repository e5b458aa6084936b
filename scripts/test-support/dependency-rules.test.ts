import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');
const FOLDERS = ['api', 'inference', 'hosted', 'benchmarks', 'scripts', 'proto', 'k8s'];
const KNOWN = '.dependency-cruiser-known-violations.json';
/** The project's dependency-cruiser; DEPCRUISE may name another install of the same version. */
const DEPCRUISE = process.env.DEPCRUISE ?? path.join(ROOT, 'node_modules', '.bin', 'depcruise');
const run = promisify(execFile);

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}
interface Report {
  summary: { violations: Violation[]; ignore?: number };
}

/** depcruise exits non-zero when it finds a violation; its JSON report is what the tests read either way. */
async function cruise(cwd: string, args: string[]): Promise<Report> {
  try {
    const { stdout } = await run(DEPCRUISE, ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...args], {
      cwd,
      maxBuffer: 256 * 1024 * 1024,
    });
    return JSON.parse(stdout) as Report;
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout) as Report;
    throw error;
  }
}

const lines = (violations: Violation[]) => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

describe('the import boundaries (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  it('finds no violation in the repository, and lists none as known: the domain owns its ports', async () => {
    const report = await cruise(ROOT, ['--ignore-known', KNOWN, ...FOLDERS]);
    // The listed ones come back with severity 'ignore'; everything else is a new violation.
    expect(lines(report.summary.violations.filter((v) => v.rule.severity !== 'ignore'))).toEqual([]);
    const known = JSON.parse(readFileSync(path.join(ROOT, KNOWN), 'utf8')) as Violation[];
    expect(lines(known)).toEqual([]);
  }, 120_000);

  it('reports a planted import against each rule', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'depcruise-rules-'));
    try {
      const plant = (file: string, source: string) => {
        mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
        writeFileSync(path.join(dir, file), source);
      };
      writeFileSync(
        path.join(dir, '.dependency-cruiser.cjs'),
        readFileSync(path.join(ROOT, '.dependency-cruiser.cjs')),
      );
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { module: 'commonjs', moduleResolution: 'node', strict: true } }),
      );
      plant('api/src/data-access/store.repository.ts', 'export const store = 1;\n');
      plant('api/src/data-access/account.repository.ts', 'export class AccountRepository {}\n');
      plant('api/src/entry-points/http/app.ts', 'export const app = 1;\n');
      plant(
        'api/src/domain/usecases/x/x.usecase.ts',
        "import { Schema } from 'mongoose';\nimport express from 'express';\nimport { store } from '../../../data-access/store.repository';\nimport { app } from '../../../entry-points/http/app';\nexport const x = [store, app, Schema, express];\n",
      );
      plant('inference/src/serving/server.ts', 'export const server = 1;\n');
      plant(
        'inference/src/client/client.ts',
        "import { server } from '../serving/server';\nexport const client = server;\n",
      );
      plant(
        'api/src/data-access/inference.repository.ts',
        "import { server } from '../../../inference/src/serving/server';\nexport const inference = server;\n",
      );
      plant(
        'hosted/web/page.ts',
        "import { store } from '../../api/src/data-access/store.repository';\nexport const page = store;\n",
      );
      plant('api/src/shared/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
      plant('api/src/shared/b.ts', "import { a } from './a';\nexport const b = () => a;\n");
      plant('api/test/support/helper.ts', 'export const helper = 1;\n');
      plant(
        'benchmarks/x/bench-x.ts',
        "import { helper } from '../../api/test/support/helper';\nimport { store } from '../../api/src/data-access/store.repository';\nexport const x = [helper, store];\n",
      );
      plant(
        'api/test/some.test.ts',
        "import { AccountRepository } from '../src/data-access/account.repository';\nexport const a = AccountRepository;\n",
      );
      plant(
        'scripts/test-support/account-bootstrap.ts',
        "import { AccountRepository } from '../../api/src/data-access/account.repository';\nexport const a = AccountRepository;\n",
      );
      const report = await cruise(dir, ['api', 'inference', 'hosted', 'benchmarks', 'scripts']);
      expect(lines(report.summary.violations).sort()).toEqual([
        'accounts-through-the-bootstrap: api/test/some.test.ts → api/src/data-access/account.repository.ts',
        'api-not-to-inference-server: api/src/data-access/inference.repository.ts → inference/src/serving/server.ts',
        'benchmarks-through-public-entry: benchmarks/x/bench-x.ts → api/src/data-access/store.repository.ts',
        'benchmarks-through-public-entry: benchmarks/x/bench-x.ts → api/test/support/helper.ts',
        'domain-not-to-data-access: api/src/domain/usecases/x/x.usecase.ts → api/src/data-access/store.repository.ts',
        'domain-not-to-entry-points: api/src/domain/usecases/x/x.usecase.ts → api/src/entry-points/http/app.ts',
        'domain-not-to-frameworks: api/src/domain/usecases/x/x.usecase.ts → express',
        'domain-not-to-frameworks: api/src/domain/usecases/x/x.usecase.ts → mongoose',
        'hosted-web-not-to-api: hosted/web/page.ts → api/src/data-access/store.repository.ts',
        'inference-client-not-to-server: inference/src/client/client.ts → inference/src/serving/server.ts',
        'no-circular: api/src/shared/a.ts → api/src/shared/b.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
