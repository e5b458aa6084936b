/**
 * The committed configs, for tests that cover every model. Read synchronously because jest needs
 * the list of models when it collects tests, before any async hook runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listConfiguredVersions } from '../../../src/repository/repository-walk';
import { isCommitted, type PackageSource, type RepositoryConfig } from '../../materializer/repository-config';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
export const MODELS_DIR = path.join(REPO_ROOT, 'models');
export const PACKAGES_DIR = path.join(REPO_ROOT, 'node_modules');

export interface CommittedVersion {
  label: string;
  dir: string;
  config: RepositoryConfig;
}

export function committedVersions(): CommittedVersion[] {
  return listConfiguredVersions(MODELS_DIR).map(({ name, version, dir, configPath }) => ({
    label: `${name} v${version}`,
    dir,
    config: JSON.parse(readFileSync(configPath, 'utf8')) as RepositoryConfig,
  }));
}

export type PackageVersion = CommittedVersion & { config: { source: PackageSource } };

/** The versions produced from an npm package (not the models committed to the repository). */
export const packageVersions = (): PackageVersion[] =>
  committedVersions().filter((v): v is PackageVersion => !isCommitted(v.config.source));

export const convertedVersions = () =>
  packageVersions().filter((v) => v.config.source.conversion === 'tfjs-graph-to-onnx');
