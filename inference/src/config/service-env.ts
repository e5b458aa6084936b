/** The service's environment, validated once at start; every bad variable is named. */
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

/** Exported for the manifests test (k8s/test), which checks every variable a container sets is known here. */
export const serviceEnvSchema = z
  .object({
    INFERENCE_PORT: port.default(50051),
    INFERENCE_HOST: z.string().min(1).default('0.0.0.0'),
    INFERENCE_METRICS_PORT: port.default(9464),
    MODEL_REPOSITORY: z.string().min(1).default('models'),
    /** Comma-separated subset of models to serve (a GPU node may serve only some). */
    INFERENCE_MODELS: z
      .string()
      .optional()
      .transform((v) =>
        v
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    /** 'process' (default): sessions in child processes; 'inline': on the front's thread (measurement only). */
    INFERENCE_EXECUTOR: z.enum(['process', 'inline']).default('process'),
    /** Executor processes sharing the models: 1 (default, lowest memory), N, or 'per-model' (isolation, GPU nodes). */
    INFERENCE_EXECUTOR_PROCESSES: z.union([z.literal('per-model'), z.coerce.number().int().positive()]).default(1),
    INFERENCE_DYNAMIC_BATCHING: z.enum(['on', 'off']).default('on'),
    /** ORT intra-op threads per session; unset = one per core. */
    INFERENCE_INTRA_OP_THREADS: z.coerce.number().int().positive().optional(),
    /**
     * Niceness of executor processes. 0 by default: niceness ranks a process against every process
     * on the host, not only the front, so at 10 on a shared machine the executor lost the CPU to
     * everyone (measured: 21 ms vs 1.4 ms per passive-liveness call at load average 20). Raise
     * it only where the pod's cgroup holds nothing but the front and its executors.
     */
    INFERENCE_EXECUTOR_NICE: z.coerce.number().int().min(0).max(19).default(0),
    /**
     * Where every model runs. cuda: on the GPU or the service exits at start naming the model and
     * why; cpu (default): on the CPU; auto: CUDA where it opens, else CPU with a warning.
     */
    INFERENCE_DEVICE: z.enum(['cpu', 'cuda', 'auto']).default('cpu'),
    /**
     * Memory for the rows the verification checks remember (the same frame or selfie sent through a
     * face model by another check is answered from it); 0 (default) turns it off. The image memo
     * answers those repeats before any row is cut, so the cache only costs its hashing unless the
     * memo is off (measured: 60 ms of the front's CPU per verification).
     */
    INFERENCE_ROW_CACHE_MB: z.coerce.number().min(0).default(0),
    /**
     * Memory for decoded uploads the checks share (an upload decoded once, its faces found, meshed
     * and embedded once however many checks ask); 0 turns the memo off. Default 128.
     */
    INFERENCE_IMAGE_MEMO_MB: z.coerce.number().min(0).default(128),
    /** How long a remembered row lives after its run, in seconds (it holds face landmarks and embeddings). */
    INFERENCE_ROW_CACHE_TTL_S: z.coerce.number().positive().default(600),
    /** The CUDA 13 runtime libraries (`npm run gpu:install` writes it to .state/gpu/env; the GPU image sets it). */
    INFERENCE_CUDA_LIBRARY_PATH: z.string().min(1).optional(),
  })
  .refine((env) => env.INFERENCE_DEVICE === 'cpu' || env.INFERENCE_EXECUTOR === 'process', {
    // onnxruntime prints why CUDA failed only to stderr, which the front reads from executor processes.
    path: ['INFERENCE_EXECUTOR'],
    message: 'INFERENCE_DEVICE=cuda or auto needs INFERENCE_EXECUTOR=process',
  });

export type ServiceEnv = z.infer<typeof serviceEnvSchema>;

export function readServiceEnv(env: NodeJS.ProcessEnv = process.env): ServiceEnv {
  const result = serviceEnvSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid inference service environment: ${problems}`);
  }
  return result.data;
}
