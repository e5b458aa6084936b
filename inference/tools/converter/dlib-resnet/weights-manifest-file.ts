/**
 * Reads a TFJS weights manifest that comes without a graph (`*-weights_manifest.json`, an array
 * of weight groups, as face-api ships its nets): the architecture lives in the package's code, so
 * only the named weights are decoded here, bit for bit as tfjs-core does.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { WeightsGroup } from '../tfjs-model-json';
import { type DecodedWeight, decodeWeights } from '../weights-decoder';

export async function readWeightsManifest(manifestPath: string): Promise<Map<string, DecodedWeight>> {
  const groups = JSON.parse(await readFile(manifestPath, 'utf8')) as WeightsGroup[];
  if (!Array.isArray(groups))
    throw new Error(`${manifestPath}: not a weights manifest (expected an array of weight groups)`);
  const dir = path.dirname(manifestPath);
  const shards = await Promise.all(
    groups.map(async (group) => Buffer.concat(await Promise.all(group.paths.map((p) => readFile(path.join(dir, p)))))),
  );
  return decodeWeights(groups, shards);
}
