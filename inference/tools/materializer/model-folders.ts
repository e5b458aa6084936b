/**
 * Finds every models/<name>/<version>/config.json. Folders without numbered subfolders
 * (converter/, materializer/, testdata/, eval/) are not models and are skipped.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { MaterializeError } from './materialize-error';
import type { RepositoryConfig } from './repository-config';

export interface VersionFolder {
  name: string;
  version: number;
  dir: string;
  config: RepositoryConfig;
}

const VERSION_FOLDER = /^[1-9][0-9]*$/;

async function subfolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
}

async function readConfig(file: string, name: string, version: number): Promise<RepositoryConfig> {
  let config: RepositoryConfig;
  try {
    config = JSON.parse(await readFile(file, 'utf8')) as RepositoryConfig;
  } catch (error) {
    throw new MaterializeError(name, version, `unreadable config.json: ${(error as Error).message}`);
  }
  // A copied folder whose config still names the old model would serve under the wrong name.
  if (config.name !== name) throw new MaterializeError(name, version, `config.json says name "${config.name}"`);
  if (config.version !== version) throw new MaterializeError(name, version, `config.json says version ${config.version}`);
  return config;
}

export async function listVersionFolders(modelsDir: string): Promise<VersionFolder[]> {
  const found: VersionFolder[] = [];
  for (const name of await subfolders(modelsDir)) {
    const versions = (await subfolders(path.join(modelsDir, name))).filter((v) => VERSION_FOLDER.test(v));
    for (const v of versions.sort((a, b) => Number(a) - Number(b))) {
      const dir = path.join(modelsDir, name, v);
      const configFile = path.join(dir, 'config.json');
      const hasConfig = (await readdir(dir)).includes('config.json');
      if (!hasConfig) continue;
      found.push({ name, version: Number(v), dir, config: await readConfig(configFile, name, Number(v)) });
    }
  }
  return found;
}
