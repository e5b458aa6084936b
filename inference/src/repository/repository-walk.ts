/**
 * The one walk of a Triton-style model repository, shared by the service's loader, the
 * materializer and the tests: <root>/<model>/<N>/config.json. Every folder under the root is a
 * model (tools live in inference/tools/, not here); version folders are positive integers.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const VERSION_FOLDER = /^[1-9][0-9]*$/;

const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name);

/** Model folder names under the repository root, sorted. */
export function listModelNames(root: string): string[] {
  return folders(root).sort();
}

/** A model's numbered version folders, lowest first. */
export function listVersionNumbers(modelDir: string): number[] {
  return folders(modelDir)
    .filter((name) => VERSION_FOLDER.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}

export interface VersionFolderPath {
  name: string;
  version: number;
  dir: string;
  configPath: string;
}

/** Every version folder that holds a config.json, model by model, lowest version first. */
export function listConfiguredVersions(root: string): VersionFolderPath[] {
  return listModelNames(root).flatMap((name) =>
    listVersionNumbers(join(root, name)).flatMap((version) => {
      const dir = join(root, name, String(version));
      const configPath = join(dir, 'config.json');
      return existsSync(configPath) ? [{ name, version, dir, configPath }] : [];
    }),
  );
}
