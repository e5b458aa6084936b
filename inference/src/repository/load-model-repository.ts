/**
 * Reads a Triton-style model repository: <root>/<model>/<version>/config.json + model file. Every
 * check that needs no ONNX session happens here (config schema, names, file presence, checksum);
 * graph and warm-up checks follow once a session exists (see runtime/open-model.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DeclaredModelConfig, Device, ModelConfig } from './model-config';
import { fileSha256 } from './file-sha256';
import { parseModelConfig } from './model-config-schema';
import { ModelRepositoryError } from './model-repository-error';
import { listModelNames } from './repository-walk';
import { servedConfig } from './served-config';
import { chooseServedVersion } from './served-version';

export interface ModelEntry {
  name: string;
  version: number;
  /** Absolute path of the served version folder (assets are resolved against it). */
  versionDir: string;
  modelPath: string;
  /** config.json as written, both batch profiles. */
  declared: DeclaredModelConfig;
  /** As served on the device the repository was loaded for (see served-config.ts). */
  config: ModelConfig;
}

export interface LoadRepositoryOptions {
  /** Load only these models (tests, or a GPU node serving a subset); default: every model folder. */
  only?: string[];
  /** Whose batch profile `config` carries; default cpu. The service re-picks it for the device a session opened on. */
  device?: Device;
}

export async function loadModelEntry(root: string, name: string, device: Device = 'cpu'): Promise<ModelEntry> {
  const modelDir = join(root, name);
  if (!existsSync(modelDir)) throw new ModelRepositoryError(name, `no folder ${modelDir}`);
  const version = chooseServedVersion(name, modelDir);
  const versionDir = join(modelDir, String(version));
  const configPath = join(versionDir, 'config.json');
  if (!existsSync(configPath)) throw new ModelRepositoryError(name, `version ${version} has no config.json`);

  let config: DeclaredModelConfig;
  try {
    config = parseModelConfig(JSON.parse(readFileSync(configPath, 'utf8')));
  } catch (error) {
    throw new ModelRepositoryError(name, `${configPath}: ${(error as Error).message}`);
  }
  if (config.name !== name) throw new ModelRepositoryError(name, `config.json says name "${config.name}" but the folder is "${name}"`);
  if (config.version !== version) throw new ModelRepositoryError(name, `config.json says version ${config.version} but the folder is ${version}/`);

  const modelPath = join(versionDir, config.file);
  if (!existsSync(modelPath)) {
    throw new ModelRepositoryError(name, `${modelPath} is missing (model files are not committed: run npm run models:materialize)`);
  }
  const actual = await fileSha256(modelPath);
  if (actual !== config.sha256) {
    throw new ModelRepositoryError(name, `checksum mismatch for ${config.file}: config.json declares ${config.sha256}, file is ${actual}`);
  }
  for (const [key, asset] of Object.entries(config.assets ?? {})) {
    if (!existsSync(join(versionDir, asset))) throw new ModelRepositoryError(name, `asset "${key}" (${asset}) is missing from ${versionDir}`);
  }
  return { name, version, versionDir, modelPath, declared: config, config: servedConfig(config, device) };
}

export async function loadModelRepository(root: string, options: LoadRepositoryOptions = {}): Promise<ModelEntry[]> {
  const absolute = resolve(root);
  if (!existsSync(absolute)) throw new Error(`model repository ${absolute} does not exist`);
  const names = options.only ?? listModelNames(absolute);
  if (names.length === 0) throw new Error(`model repository ${absolute} holds no model folder (<model>/<version>/config.json)`);
  const entries: ModelEntry[] = [];
  for (const name of names) entries.push(await loadModelEntry(absolute, name, options.device));
  return entries;
}
