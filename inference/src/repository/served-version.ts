/**
 * Which version folder of a model is served: the highest number, unless version-policy.json pins
 * one ({"serve": N}) so a new version can be staged next to the live one before it takes over.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelRepositoryError } from './model-repository-error';
import { listVersionNumbers } from './repository-walk';

export function chooseServedVersion(model: string, modelDir: string): number {
  const versions = listVersionNumbers(modelDir);
  const policyPath = join(modelDir, 'version-policy.json');
  if (existsSync(policyPath)) {
    let serve: unknown;
    try {
      serve = (JSON.parse(readFileSync(policyPath, 'utf8')) as { serve?: unknown }).serve;
    } catch (error) {
      throw new ModelRepositoryError(model, `version-policy.json is not valid JSON (${(error as Error).message})`);
    }
    if (typeof serve !== 'number' || !Number.isInteger(serve)) {
      throw new ModelRepositoryError(model, 'version-policy.json must be {"serve": <version number>}');
    }
    if (!versions.includes(serve)) {
      throw new ModelRepositoryError(
        model,
        `version-policy.json serves version ${serve}, but there is no folder ${serve}/ (found: ${versions.join(', ') || 'none'})`,
      );
    }
    return serve;
  }
  const highest = versions.at(-1);
  if (highest === undefined)
    throw new ModelRepositoryError(model, 'no numbered version folder (expected <model>/1/config.json)');
  return highest;
}
