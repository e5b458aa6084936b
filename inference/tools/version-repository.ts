/**
 * A repository beside models/ in which one model serves a chosen version (version-policy.json),
 * so two versions can run side by side in one process: every other model folder is a symlink,
 * the chosen version folder's files are hard links.
 */
import { linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function versionRepository(models: string, name: string, version: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-v${version}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const entry of readdirSync(models, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== name)
      symlinkSync(path.join(models, entry.name), path.join(dir, entry.name));
  }
  const from = path.join(models, name, String(version));
  const to = path.join(dir, name, String(version));
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from)) linkSync(path.join(from, file), path.join(to, file));
  writeFileSync(path.join(dir, name, 'version-policy.json'), JSON.stringify({ serve: version }));
  return dir;
}
