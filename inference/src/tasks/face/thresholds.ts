import type { ModelRunner } from '../../runtime/model-runner';

/**
 * A decision line from the served model's config.json `thresholds`. There is deliberately no
 * default in code: a line that is not configured is an error, so what a check was held to is
 * always what the model repository says.
 */
export function configuredThreshold(runner: ModelRunner, model: string, name: string): number {
  const config = runner.config(model);
  const value = config.thresholds?.[name];
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new Error(`models/${model}/${config.version}/config.json has no thresholds.${name}`);
  }
  return value;
}
