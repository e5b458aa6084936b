/**
 * Memory with every model loaded, on the repository as declared (production max_batch_size):
 * idle after warm-up, then the peak while each model in turn takes 32 batch-1 callers and one
 * request at its max batch size. onnxruntime's CPU arena keeps what a run needed, so the peak
 * after the largest declared batch is the steady state an operator should budget for.
 */
import { createInferenceClient } from '../../inference/src/client/inference-client';
import { loadModelRepository } from '../../inference/src/repository/load-model-repository';
import { tooLargeForRequest } from './bench-inputs';
import { emptyLoad, encodedInputs, loadSlice } from './service-load';
import { startInferenceProcess, type InferenceProcess } from '../../scripts/test-support/inference-process';

type Memory = ReturnType<InferenceProcess['memory']>;

export async function measureMemory(repository: string, only?: string[]): Promise<{ idle: Memory; peak: Memory }> {
  const entries = await loadModelRepository(repository, { only });
  const service = await startInferenceProcess(repository);
  const client = createInferenceClient({ address: service.address });
  try {
    const idle = service.memory();
    let peak = idle;
    for (const entry of entries) {
      await loadSlice(client, entry.name, encodedInputs(entry.config, 1), 1, 32, 600, emptyLoad());
      const max = Math.max(1, entry.config.max_batch_size);
      if (!tooLargeForRequest(entry.config, max))
        await client.modelInfer({ modelName: entry.name, inputs: encodedInputs(entry.config, max) }, 120_000);
      const now = service.memory();
      if (now.rss_mb > peak.rss_mb) peak = now;
    }
    return { idle, peak };
  } finally {
    client.close();
    await service.stop();
  }
}
