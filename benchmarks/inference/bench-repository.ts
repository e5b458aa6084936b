/**
 * The benchmark serves the repository's own model files (symlinked, so checksums still hold)
 * with max_batch_size raised to 32, so every batch size from 1 to 32 can be measured through the
 * service. Everything else in each config (batching policy, providers) is kept as declared.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadModelRepository, type ModelEntry } from '../../inference/src/repository/load-model-repository';

export const BENCH_MAX_BATCH = 32;

export async function prepareBenchRepository(source: string, only?: string[]): Promise<{ root: string; entries: ModelEntry[] }> {
  const entries = await loadModelRepository(source, { only });
  const root = resolve('.state/bench/inference-models');
  rmSync(root, { recursive: true, force: true });
  for (const entry of entries) {
    const dir = join(root, entry.name, String(entry.version));
    mkdirSync(dir, { recursive: true });
    symlinkSync(entry.modelPath, join(dir, entry.config.file));
    for (const asset of Object.values(entry.config.assets ?? {})) symlinkSync(join(entry.versionDir, asset), join(dir, asset));
    const batching = entry.config.dynamic_batching;
    const config = {
      ...entry.config,
      max_batch_size: BENCH_MAX_BATCH,
      ...(batching ? { dynamic_batching: { ...batching, max_queue_size: Math.max(batching.max_queue_size ?? 0, 256) } } : {}),
    };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  }
  return { root, entries };
}
