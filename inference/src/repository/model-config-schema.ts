/**
 * The declared shape of models/<name>/<version>/config.json, checked before anything is loaded so
 * a typo in a config stops start-up with the field's path instead of failing at the first request.
 * Mirrors ModelConfig in model-config.ts.
 */
import { z } from 'zod';
import type { ModelConfig } from './model-config';

const dtype = z.enum(['float32', 'int32', 'int64', 'uint8']);

const tensorSpec = z.object({
  name: z.string().min(1),
  dtype,
  dims: z.array(z.number().int().min(-1).refine((d) => d !== 0, 'a dim is -1 (free) or positive')),
  layout: z.string().optional(),
}).passthrough();

const preprocessing = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  color: z.enum(['RGB', 'BGR', 'GRAY']),
  scale: z.number(),
  mean: z.array(z.number()),
  std: z.array(z.number().refine((s) => s !== 0, 'std must not be 0')),
  layout: z.enum(['NHWC', 'NCHW']),
}).passthrough();

export const modelConfigSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'kebab-case model name'),
    version: z.number().int().positive(),
    task: z.string().min(1),
    platform: z.literal('onnxruntime'),
    file: z.string().min(1).refine((f) => !f.includes('/') && !f.includes('\\'), 'a file name inside the version folder'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex sha256'),
    licence: z.string().min(1),
    source: z.union([
      z.object({
        package: z.string().min(1),
        package_version: z.string().min(1),
        path: z.string().min(1),
        conversion: z.string().optional(),
      }).passthrough(),
      z.object({ committed: z.string().min(1) }).passthrough(),
    ]),
    inputs: z.array(tensorSpec).min(1),
    outputs: z.array(tensorSpec).min(1),
    preprocessing: preprocessing.optional(),
    max_batch_size: z.number().int().min(0),
    dynamic_batching: z
      .object({
        preferred_batch_size: z.array(z.number().int().positive()).optional(),
        max_queue_delay_microseconds: z.number().int().min(0),
        max_queue_size: z.number().int().positive().optional(),
      })
      .passthrough()
      .optional(),
    execution_providers: z.array(z.enum(['cuda', 'cpu'])).min(1),
    thresholds: z.record(z.string(), z.number()).optional(),
    assets: z.record(z.string(), z.string()).optional(),
    warmup: z.object({ batch_size: z.number().int().positive() }).optional(),
  })
  .passthrough()
  .superRefine((config, ctx) => {
    const preferred = config.dynamic_batching?.preferred_batch_size ?? [];
    for (const size of preferred) {
      if (config.max_batch_size > 0 && size > config.max_batch_size) {
        ctx.addIssue({ code: 'custom', path: ['dynamic_batching', 'preferred_batch_size'], message: `${size} exceeds max_batch_size ${config.max_batch_size}` });
      }
    }
    if (config.warmup && config.max_batch_size > 0 && config.warmup.batch_size > config.max_batch_size) {
      ctx.addIssue({ code: 'custom', path: ['warmup', 'batch_size'], message: 'exceeds max_batch_size' });
    }
  });

/** Parses raw JSON into a ModelConfig or throws a readable list of every bad field. */
export function parseModelConfig(raw: unknown): ModelConfig {
  const result = modelConfigSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`invalid config.json: ${problems.join('; ')}`);
  }
  return result.data as ModelConfig;
}
