/**
 * Every models/<name>/<version>/config.json the materializer works through, found by the
 * repository's one walk (src/repository/repository-walk.ts) and read with the materializer's own
 * provenance fields.
 */
import { readFile } from 'node:fs/promises';
import { listConfiguredVersions, type VersionFolderPath } from '../../src/repository/repository-walk';
import { MaterializeError } from './materialize-error';
import type { RepositoryConfig } from './repository-config';

export type VersionFolder = Omit<VersionFolderPath, 'configPath'> & { config: RepositoryConfig };

async function readConfig(file: string, name: string, version: number): Promise<RepositoryConfig> {
  let config: RepositoryConfig;
  try {
    config = JSON.parse(await readFile(file, 'utf8')) as RepositoryConfig;
  } catch (error) {
    throw new MaterializeError(name, version, `unreadable config.json: ${(error as Error).message}`);
  }
  // A copied folder whose config still names the old model would serve under the wrong name.
  if (config.name !== name) throw new MaterializeError(name, version, `config.json says name "${config.name}"`);
  if (config.version !== version)
    throw new MaterializeError(name, version, `config.json says version ${config.version}`);
  return config;
}

export async function listVersionFolders(modelsDir: string): Promise<VersionFolder[]> {
  const found: VersionFolder[] = [];
  for (const { name, version, dir, configPath } of listConfiguredVersions(modelsDir)) {
    found.push({ name, version, dir, config: await readConfig(configPath, name, version) });
  }
  return found;
}
