import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
const FOLDERS = ['api', 'inference', 'models', 'hosted', 'benchmarks', 'scripts', 'k8s', 'proto'];
const SKIP = new Set(['node_modules', 'dist', '.state', 'public', 'gen']);
const SOURCE = /\.(ts|tsx|js|cjs|mjs)$/;

/** The checker and its test, whose planted examples would otherwise report themselves. */
const SELF = new Set(['scripts/test-support/import-boundaries.ts', 'scripts/test-support/boundaries.test.ts']);

/** Every source file of the repository's folders but the checker's own, relative to the root (untracked ones too). */
export function sourceFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name)) walk(rel);
      } else if (SOURCE.test(entry.name) && !SELF.has(rel)) {
        found.push(rel);
      }
    }
  };
  for (const folder of FOLDERS) walk(folder);
  return found;
}

/** The files a source imports (static, dynamic, require, re-export), resolved against the root; packages are left out. */
export function importedPaths(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\1/g)].map((m) => m[2]!);
  return specifiers
    .filter((s) => s.startsWith('.') || s.startsWith('/'))
    .map((s) => path.relative(ROOT, path.resolve(ROOT, path.dirname(file), s)).split(path.sep).join('/'));
}

/** A folder's own test internals or the API's data layer: what a benchmark must reach through scripts/test-support or api/src/public-entry.ts. */
export function forbiddenForBenchmark(target: string): boolean {
  return target.split('/').includes('test') || target.startsWith('api/src/data-access/') || target === 'api/src/data-access';
}

const BOOTSTRAP_HOME = 'scripts/test-support/account-bootstrap.ts';
const ACCOUNT_INSIDES = ['api/src/data-access/account.repository', 'api/src/domain/usecases/manage-accounts/manage-accounts.usecase'];

/** Test or benchmark code, where accounts must come from the one bootstrap (unit tests under src/ test the account code itself). */
export function isTestOrBenchmark(file: string): boolean {
  if (file.split('/').includes('src')) return false;
  return file.startsWith('benchmarks/') || file.split('/').includes('test') || file.startsWith('scripts/test-support/') || file.endsWith('.test.ts');
}

/** Why `file` bootstraps an account by itself, or null when it does not. */
export function bootstrapCopy(file: string, source: string): string | null {
  if (file === BOOTSTRAP_HOME || !isTestOrBenchmark(file)) return null;
  const imported = importedPaths(file, source).find((target) => ACCOUNT_INSIDES.some((inside) => target.replace(/\.ts$/, '') === inside));
  if (imported) return `imports ${imported}`;
  if (/\bnew\s+AccountRepository\s*\(/.test(source)) return 'constructs an AccountRepository';
  return null;
}

export interface Finding { file: string; problem: string }

/** Every benchmark import of a test/ folder or of api/src/data-access, and every account bootstrap outside the support folder. */
export function boundaryFindings(files = sourceFiles(), read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8')): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    const source = read(file);
    if (file.startsWith('benchmarks/')) {
      for (const target of importedPaths(file, source).filter(forbiddenForBenchmark)) findings.push({ file, problem: `imports ${target}` });
    }
    const copy = bootstrapCopy(file, source);
    if (copy) findings.push({ file, problem: `bootstraps an account itself (${copy}); use ${BOOTSTRAP_HOME}` });
  }
  return findings;
}
