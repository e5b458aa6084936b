/**
 * The benchmark serves the repository's own model files (symlinked, so checksums still hold)
 * with each batch profile's max_batch_size raised to at least 32, so every batch size from 1 to 32
 * can be measured through the service. Everything else in each config is kept as declared.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadModelRepository, type ModelEntry } from '../../inference/src/repository/load-model-repository';
import type { BatchProfile } from '../../inference/src/repository/model-config';

export const BENCH_MAX_BATCH = 32;

export async function prepareBenchRepository(
  source: string,
  only?: string[],
): Promise<{ root: string; entries: ModelEntry[] }> {
  const entries = await loadModelRepository(source, { only });
  const root = resolve('.state/bench/inference-models');
  rmSync(root, { recursive: true, force: true });
  for (const entry of entries) {
    const dir = join(root, entry.name, String(entry.version));
    mkdirSync(dir, { recursive: true });
    symlinkSync(entry.modelPath, join(dir, entry.config.file));
    for (const asset of Object.values(entry.config.assets ?? {}))
      symlinkSync(join(entry.versionDir, asset), join(dir, asset));
    const widen = (profile: BatchProfile): BatchProfile => ({
      ...profile,
      max_batch_size: Math.max(profile.max_batch_size, BENCH_MAX_BATCH),
      max_queue_size: Math.max(profile.max_queue_size ?? 0, 256),
    });
    const config = {
      ...entry.declared,
      batching: { cpu: widen(entry.declared.batching.cpu), cuda: widen(entry.declared.batching.cuda) },
    };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  }
  return { root, entries };
}
