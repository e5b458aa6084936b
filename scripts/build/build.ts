/**
 * `npm run build`: what the images run. tsc compiles every server folder to CommonJS under the
 * output folder, keeping the repository's layout so paths relative to a module (the hosted flow's
 * static files, the inference executor child) hold in `dist/` as in the sources. The browser
 * bundle is built by the hosted flow's own script when it has one, then its static folder is
 * copied beside the compiled code. Usage: `tsx scripts/build/build.ts [--out-dir <dir>]`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

export function build(outDir: string): void {
  const out = path.resolve(outDir);
  rmSync(out, { recursive: true, force: true });
  const scripts = (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  if (scripts['build:web']) execFileSync('npm', ['run', '--silent', 'build:web'], { cwd: root, stdio: 'inherit' });
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', out],
    { cwd: root, stdio: 'inherit' },
  );
  // The project's test CSCAs, which sandbox keys trust, are read beside their loader at start.
  const testCscas = 'api/src/data-access/chip-trust/test-csca';
  cpSync(path.join(root, testCscas), path.join(out, testCscas), { recursive: true });
  const publicDir = path.join(root, 'hosted/public');
  if (existsSync(publicDir)) cpSync(publicDir, path.join(out, 'hosted/public'), { recursive: true });
}

if (require.main === module) {
  const flag = process.argv.indexOf('--out-dir');
  build(flag >= 0 ? process.argv[flag + 1] : path.join(root, 'dist'));
}
