/**
 * Reads model files out of an installed npm package. The version is checked first: a different
 * package version would give a different sha256, and "package 3.0.5 installed, config pins 3.0.4"
 * says more than a checksum mismatch.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MaterializeError } from './materialize-error';
import type { VersionFolder } from './model-folders';
import type { PackageSource } from './repository-config';

export function packageDir(packagesDir: string, packageName: string): string {
  return path.join(packagesDir, ...packageName.split('/'));
}

export async function openPackage(packagesDir: string, folder: VersionFolder, source: PackageSource): Promise<string> {
  const { package: name, package_version: wanted } = source;
  const dir = packageDir(packagesDir, name);
  let installed: string;
  try {
    installed = (JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    throw new MaterializeError(folder.name, folder.version, `package ${name} is not installed (run npm install)`);
  }
  if (installed !== wanted) {
    throw new MaterializeError(
      folder.name,
      folder.version,
      `config pins ${name}@${wanted} but ${installed} is installed`,
    );
  }
  return dir;
}

/** Resolves a path inside the package, refusing any that climbs out of it. */
export function fileInPackage(dir: string, relative: string, folder: VersionFolder): string {
  const file = path.resolve(dir, relative);
  if (!file.startsWith(dir + path.sep))
    throw new MaterializeError(folder.name, folder.version, `source path ${relative} leaves the package`);
  return file;
}

/**
 * Resolves a committed model file from the repository root (the folder above models/), refusing a
 * path that climbs out of the repository.
 */
export function committedFile(modelsDir: string, relative: string, folder: VersionFolder): string {
  const root = path.dirname(modelsDir);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep))
    throw new MaterializeError(folder.name, folder.version, `committed path ${relative} leaves the repository`);
  return file;
}
