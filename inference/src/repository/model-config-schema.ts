/**
 * The declared shape of models/<name>/<version>/config.json, checked before anything is loaded so
 * a typo in a config stops start-up with the field's path instead of failing at the first request.
 * Mirrors DeclaredModelConfig in model-config.ts.
 */
import { z } from 'zod';
import type { DeclaredModelConfig } from './model-config';

const dtype = z.enum(['float32', 'int32', 'int64', 'uint8']);

const tensorSpec = z
  .object({
    name: z.string().min(1),
    dtype,
    dims: z.array(
      z
        .number()
        .int()
        .min(-1)
        .refine((d) => d !== 0, 'a dim is -1 (free) or positive'),
    ),
    layout: z.string().optional(),
    /** Class-index outputs (a recogniser's argmax) say how many classes the index ranges over. */
    classes: z.number().int().positive().optional(),
  })
  .passthrough();

const preprocessing = z
  .object({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    color: z.enum(['RGB', 'BGR', 'GRAY']),
    scale: z.number(),
    mean: z.array(z.number()),
    std: z.array(z.number().refine((s) => s !== 0, 'std must not be 0')),
    layout: z.enum(['NHWC', 'NCHW']),
  })
  .passthrough();

const batchSize = z.number().int().positive();

const batchProfile = z
  .object({
    max_batch_size: batchSize,
    preferred_batch_size: z.array(batchSize).optional(),
    max_queue_delay_microseconds: z.number().int().min(0),
    max_queue_size: batchSize.optional(),
    warmup_batch_sizes: z.array(batchSize).min(1),
  })
  .strict()
  .superRefine((profile, ctx) => {
    for (const key of ['preferred_batch_size', 'warmup_batch_sizes'] as const) {
      for (const size of profile[key] ?? []) {
        if (size > profile.max_batch_size)
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `${size} exceeds max_batch_size ${profile.max_batch_size}`,
          });
      }
    }
  });

const precisionVariant = z
  .object({
    file: z
      .string()
      .min(1)
      .refine((f) => !f.includes('/') && !f.includes('\\'), 'a file name inside the version folder'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex sha256'),
  })
  .passthrough();

export const modelConfigSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'kebab-case model name'),
    version: z.number().int().positive(),
    task: z.string().min(1),
    platform: z.literal('onnxruntime'),
    file: z
      .string()
      .min(1)
      .refine((f) => !f.includes('/') && !f.includes('\\'), 'a file name inside the version folder'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex sha256'),
    licence: z.string().min(1),
    source: z.union([
      z
        .object({
          package: z.string().min(1),
          package_version: z.string().min(1),
          path: z.string().min(1),
          conversion: z.string().optional(),
        })
        .passthrough(),
      z.object({ committed: z.string().min(1) }).passthrough(),
    ]),
    inputs: z.array(tensorSpec).min(1),
    outputs: z.array(tensorSpec).min(1),
    preprocessing: preprocessing.optional(),
    batching: z.object({ cpu: batchProfile, cuda: batchProfile }).strict(),
    thresholds: z.record(z.string(), z.number()).optional(),
    assets: z.record(z.string(), z.string()).optional(),
    precision: z.enum(['fp32', 'fp16']).optional(),
    fp16: precisionVariant.optional(),
  })
  .passthrough()
  .superRefine((config, ctx) => {
    if (config.precision === 'fp16' && !config.fp16) {
      ctx.addIssue({
        code: 'custom',
        path: ['fp16'],
        message: 'precision "fp16" needs the fp16 file: { "file": …, "sha256": … } (npm run models:convert-fp16)',
      });
    }
    if (config.fp16 && config.fp16.file === config.file)
      ctx.addIssue({
        code: 'custom',
        path: ['fp16', 'file'],
        message: 'the fp16 file must differ from the fp32 file',
      });
  });

/** Fields of the single-profile format, named so an old config says what to change. */
const LEGACY_BATCHING_FIELDS = ['max_batch_size', 'dynamic_batching', 'execution_providers', 'warmup'];

/** Parses raw JSON into a DeclaredModelConfig or throws a readable list of every bad field. */
export function parseModelConfig(raw: unknown): DeclaredModelConfig {
  const legacy = typeof raw === 'object' && raw !== null ? LEGACY_BATCHING_FIELDS.filter((f) => f in raw) : [];
  if (legacy.length > 0) {
    throw new Error(
      `invalid config.json: ${legacy.join(', ')} moved into batching.cpu and batching.cuda (one profile per device; the device comes from INFERENCE_DEVICE)`,
    );
  }
  const result = modelConfigSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`invalid config.json: ${problems.join('; ')}`);
  }
  return result.data;
}
