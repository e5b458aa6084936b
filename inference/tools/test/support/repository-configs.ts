/**
 * The committed configs, for tests that cover every model. Read synchronously because jest needs
 * the list of models when it collects tests, before any async hook runs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RepositoryConfig } from '../../materializer/repository-config';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
export const MODELS_DIR = path.join(REPO_ROOT, 'models');
export const PACKAGES_DIR = path.join(REPO_ROOT, 'node_modules');

export interface CommittedVersion {
  label: string;
  dir: string;
  config: RepositoryConfig;
}

const numbered = (dir: string) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && /^[1-9][0-9]*$/.test(e.name));

export function committedVersions(): CommittedVersion[] {
  const found: CommittedVersion[] = [];
  for (const model of readdirSync(MODELS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    for (const version of numbered(path.join(MODELS_DIR, model))) {
      const dir = path.join(MODELS_DIR, model, version.name);
      const configFile = path.join(dir, 'config.json');
      if (!readdirSync(dir).includes('config.json')) continue;
      found.push({ label: `${model} v${version.name}`, dir, config: JSON.parse(readFileSync(configFile, 'utf8')) as RepositoryConfig });
    }
  }
  return found;
}

export const convertedVersions = () => committedVersions().filter((v) => v.config.source.conversion === 'tfjs-graph-to-onnx');
