/** Reads a TFJS graph model from disk: model.json plus the weight shards it lists beside it. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TfjsModelJson } from './tfjs-model-json';
import { type DecodedWeight, decodeWeights } from './weights-decoder';

export interface TfjsModel {
  json: TfjsModelJson;
  weights: Map<string, DecodedWeight>;
}

export async function readTfjsModel(modelJsonPath: string): Promise<TfjsModel> {
  const json = JSON.parse(await readFile(modelJsonPath, 'utf8')) as TfjsModelJson;
  if (json.format !== 'graph-model')
    throw new Error(`${modelJsonPath}: format "${json.format}" is not a TFJS graph model`);
  const dir = path.dirname(modelJsonPath);
  const shards = await Promise.all(
    json.weightsManifest.map(async (group) =>
      Buffer.concat(await Promise.all(group.paths.map((p) => readFile(path.join(dir, p))))),
    ),
  );
  return { json, weights: decodeWeights(json.weightsManifest, shards) };
}
