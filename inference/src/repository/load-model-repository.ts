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
  /** Only with `"precision": "fp16"`: the checked half-precision file a CUDA session opens instead of modelPath. */
  fp16Path?: string;
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

/**
 * A model declared fp16 is served in half precision on CUDA only: CPU kernels for fp16 are few and
 * slow, and its verdicts were checked on the GPU. So a CPU service refuses it rather than quietly
 * serving fp32 or a graph it cannot run well.
 */
async function checkedFp16File(
  name: string,
  versionDir: string,
  config: DeclaredModelConfig,
  device: Device,
): Promise<string | undefined> {
  if (config.precision !== 'fp16' || !config.fp16) return undefined;
  if (device === 'cpu') {
    throw new ModelRepositoryError(
      name,
      `config.json declares "precision": "fp16", which is served on CUDA only, but this service runs on cpu (INFERENCE_DEVICE=cpu): serve it with INFERENCE_DEVICE=cuda or auto, or set "precision": "fp32" in ${join(versionDir, 'config.json')}`,
    );
  }
  const fp16Path = join(versionDir, config.fp16.file);
  if (!existsSync(fp16Path)) {
    throw new ModelRepositoryError(
      name,
      `${fp16Path} is missing ("precision": "fp16"; fp16 files are not materialized by default: run npm run models:convert-fp16 -- ${name})`,
    );
  }
  const actual = await fileSha256(fp16Path);
  if (actual !== config.fp16.sha256) {
    throw new ModelRepositoryError(
      name,
      `checksum mismatch for ${config.fp16.file}: config.json declares ${config.fp16.sha256}, file is ${actual}`,
    );
  }
  return fp16Path;
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
  if (config.name !== name)
    throw new ModelRepositoryError(name, `config.json says name "${config.name}" but the folder is "${name}"`);
  if (config.version !== version)
    throw new ModelRepositoryError(name, `config.json says version ${config.version} but the folder is ${version}/`);

  const modelPath = join(versionDir, config.file);
  if (!existsSync(modelPath)) {
    throw new ModelRepositoryError(
      name,
      `${modelPath} is missing (model files are not committed: run npm run models:materialize)`,
    );
  }
  const actual = await fileSha256(modelPath);
  if (actual !== config.sha256) {
    throw new ModelRepositoryError(
      name,
      `checksum mismatch for ${config.file}: config.json declares ${config.sha256}, file is ${actual}`,
    );
  }
  for (const [key, asset] of Object.entries(config.assets ?? {})) {
    if (!existsSync(join(versionDir, asset)))
      throw new ModelRepositoryError(name, `asset "${key}" (${asset}) is missing from ${versionDir}`);
  }
  const fp16Path = await checkedFp16File(name, versionDir, config, device);
  return {
    name,
    version,
    versionDir,
    modelPath,
    ...(fp16Path ? { fp16Path } : {}),
    declared: config,
    config: servedConfig(config, device),
  };
}

export async function loadModelRepository(root: string, options: LoadRepositoryOptions = {}): Promise<ModelEntry[]> {
  const absolute = resolve(root);
  if (!existsSync(absolute)) throw new Error(`model repository ${absolute} does not exist`);
  const names = options.only ?? listModelNames(absolute);
  if (names.length === 0)
    throw new Error(`model repository ${absolute} holds no model folder (<model>/<version>/config.json)`);
  const entries: ModelEntry[] = [];
  for (const name of names) entries.push(await loadModelEntry(absolute, name, options.device));
  return entries;
}
