/**
 * A ModelRunner whose models run in the inference service, so task code (or a benchmark) can be
 * pointed at the real batching service unchanged. Configs are fetched once at creation because
 * ModelRunner.config() is synchronous.
 */
import { decodeTensor, encodeTensor } from '../client/tensor-codec';
import type { HostTensor, InferOptions, ModelConfig, ModelRunner } from './model-runner';
import { DEFAULT_DEADLINES_MS } from '../client/call-deadline';
import type { InferenceClient } from '../client/inference-client';

export async function createRemoteModelRunner(client: InferenceClient): Promise<ModelRunner> {
  const index = await client.repositoryIndex();
  const configs = new Map<string, ModelConfig>();
  for (const model of index.models) {
    const metadata = await client.modelMetadata(model.name);
    configs.set(model.name, JSON.parse(metadata.configJson) as ModelConfig);
  }
  return {
    async infer(model: string, inputs: Record<string, HostTensor>, options: InferOptions = {}) {
      const timeoutMs =
        options.deadlineMs !== undefined ? Math.max(1, options.deadlineMs - Date.now()) : DEFAULT_DEADLINES_MS.infer;
      const response = await client.modelInfer(
        {
          modelName: model,
          inputs: Object.entries(inputs).map(([name, tensor]) => encodeTensor(name, tensor)),
        },
        timeoutMs,
      );
      return Object.fromEntries(response.outputs.map((t) => [t.name, decodeTensor(t)]));
    },
    config(model: string): ModelConfig {
      const config = configs.get(model);
      if (!config) throw new Error(`the inference service serves no model "${model}"`);
      return config;
    },
  };
}
