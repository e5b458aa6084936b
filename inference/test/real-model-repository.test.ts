/**
 * The service on the project's real repository (models/, materialised by
 * `npm run models:materialize`): every model loads, matches its graph, warms up and is served; and
 * for every model, requests batched together over gRPC answer what single runs answer.
 */
import { join } from 'node:path';
import { decodeTensor, encodeTensor } from '../src/client/tensor-codec';
import { createInProcessModelRunner, type InProcessModelRunner } from '../src/runtime/in-process-model-runner';
import type { ModelConfig } from '../src/runtime/model-runner';
import { startInferenceService, type InferenceService } from '../../scripts/test-support/inference-service';
import { sampleInputs } from './support/sample-inputs';
import { maxAbsDiff } from './support/tensors';
import { arrayContaining, stringMatching } from '../../scripts/test-support/typed-matchers';

const repository = join(__dirname, '../../models');
const expectedModels = [
  'antispoof',
  'face-detection',
  'face-embedding',
  'face-landmarks',
  'pad-minifasnet-v1se',
  'pad-minifasnet-v2',
  'passive-liveness',
  'text-detection',
  'text-recognition',
];

describe('the real model repository behind the service', () => {
  let service: InferenceService;
  let bare: InProcessModelRunner;
  beforeAll(async () => {
    service = await startInferenceService(repository);
    bare = await createInProcessModelRunner({ repository });
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await bare?.close();
  });

  it('warms every model and reports SERVING, each on a reported execution provider', async () => {
    await expect(service.client.health()).resolves.toBe('SERVING');
    const index = await service.client.repositoryIndex();
    expect(index.models.map((m) => m.name)).toEqual(arrayContaining(expectedModels));
    for (const model of index.models)
      expect(model).toMatchObject({ ready: true, executionProvider: stringMatching(/^(cpu|cuda)$/) });
  });

  it.each(expectedModels)(
    'batches concurrent %s requests and answers each as a single run does',
    async (name) => {
      const config = JSON.parse((await service.client.modelMetadata(name)).configJson) as ModelConfig;
      const smaller =
        name === 'text-detection'
          ? { ...config, preprocessing: { ...config.preprocessing!, width: 320, height: 320 } }
          : config;
      const requests = [1, 2, 3, 4].map((seed) => sampleInputs(smaller, 1, seed));
      const before = (await service.client.modelStatistics(name)).modelStats[0].executionCount;
      const answers = await Promise.all(
        requests.map((inputs) =>
          service.client.modelInfer(
            { modelName: name, inputs: Object.entries(inputs).map(([n, t]) => encodeTensor(n, t)) },
            60_000,
          ),
        ),
      );
      const after = (await service.client.modelStatistics(name)).modelStats[0].executionCount;
      if (config.dynamic_batching && config.max_batch_size > 1) expect(after - before).toBeLessThan(4);
      for (const [i, inputs] of requests.entries()) {
        const alone = await bare.infer(name, inputs);
        for (const output of answers[i].outputs) {
          const batched = decodeTensor(output);
          expect(batched.dims).toEqual(alone[output.name].dims);
          expect(maxAbsDiff(batched.data as Float32Array, alone[output.name].data as Float32Array)).toBeLessThanOrEqual(
            1e-4,
          );
        }
      }
    },
    120_000,
  );
});
