/**
 * A ModelRunner that loads the repository into this process and runs each request on its own:
 * for task unit tests, scripts and tools. It blocks the calling thread while a model runs; the
 * service uses the batching runner over executor processes instead (runtime/batching-model-runner.ts).
 */
import { loadModelRepository } from '../repository/load-model-repository';
import type { SessionTuning } from './execution-providers';
import { InferenceError } from './inference-error';
import type { HostTensor, InferOptions, ModelConfig, ModelRunner } from './model-runner';
import { openModel, type OpenModel } from './open-model';
import { validateRequest } from './validate-request';

export interface InProcessRunnerOptions extends SessionTuning {
  /** Model repository root; default "models". */
  repository?: string;
  /** Load only these models (faster tests); default every model in the repository. */
  models?: string[];
}

export interface InProcessModelRunner extends ModelRunner {
  models(): OpenModel[];
  close(): Promise<void>;
}

export async function createInProcessModelRunner(options: InProcessRunnerOptions = {}): Promise<InProcessModelRunner> {
  const entries = await loadModelRepository(options.repository ?? 'models', { only: options.models });
  // Tools and task tests only: a CUDA request needs the service, whose executors' stderr says why CUDA failed.
  if (options.device && options.device !== 'cpu')
    throw new Error(
      'the in-process runner runs on cpu only; run the inference service for INFERENCE_DEVICE=cuda or auto',
    );
  const opened: OpenModel[] = [];
  try {
    for (const entry of entries) opened.push(await openModel(entry, options));
  } catch (error) {
    await Promise.all(opened.map((m) => m.close()));
    throw error;
  }
  const byName = new Map(opened.map((m) => [m.entry.name, m]));
  const find = (model: string): OpenModel => {
    const found = byName.get(model);
    if (!found)
      throw new InferenceError(
        'NOT_FOUND',
        `no model "${model}" in the repository (have: ${[...byName.keys()].join(', ')})`,
      );
    return found;
  };
  return {
    async infer(model: string, inputs: Record<string, HostTensor>, infer: InferOptions = {}) {
      const target = find(model);
      validateRequest(target.config, inputs);
      if (infer.deadlineMs !== undefined && Date.now() > infer.deadlineMs)
        throw new InferenceError('DEADLINE_EXCEEDED', `deadline passed before "${model}" ran`);
      return target.run(inputs);
    },
    config: (model: string): ModelConfig => find(model).config,
    models: () => opened,
    close: async () => {
      await Promise.all(opened.map((m) => m.close()));
    },
  };
}
