/**
 * ModelService over gRPC against the real service (tiny ONNX model in child-process executors):
 * batching, equality of batched and single runs, status codes, metadata, statistics, metrics,
 * and recovery from an executor crash.
 */
import { status } from '@grpc/grpc-js';
import { decodeTensor } from '../src/client/tensor-codec';
import { createInProcessModelRunner } from '../src/runtime/in-process-model-runner';
import { TINY_MODEL, tinyRepository } from './fixtures/tiny-repository';
import { startInferenceService, type InferenceService } from '../../scripts/test-support/inference-service';
import { floatTensor, protoInput } from './support/tensors';

const row = (seed: number) => floatTensor([1, 4], (i) => seed * 10 + i + 0.25);
const infer = (service: InferenceService, seed: number, timeoutMs?: number) =>
  service.client.modelInfer({ modelName: TINY_MODEL, inputs: [protoInput('x', row(seed))] }, timeoutMs);

describe('ModelService over gRPC', () => {
  const repository = tinyRepository();
  let service: InferenceService;
  beforeAll(async () => {
    service = await startInferenceService(repository);
  });
  afterAll(async () => {
    await service.stop();
  });

  it('batches concurrent callers and gives each exactly the rows a single run gives', async () => {
    const single = await createInProcessModelRunner({ repository });
    const before = (await service.client.modelStatistics(TINY_MODEL)).modelStats[0];
    const seeds = Array.from({ length: 16 }, (_, i) => i);
    const answers = await Promise.all(seeds.map((seed) => infer(service, seed)));
    const after = (await service.client.modelStatistics(TINY_MODEL)).modelStats[0];
    expect(after.inferenceCount - before.inferenceCount).toBe(16);
    expect(after.executionCount - before.executionCount).toBeLessThan(16);
    expect(after.batchStats.some((b) => b.batchSize > 1)).toBe(true);
    for (const seed of seeds) {
      const alone = await single.infer(TINY_MODEL, { x: row(seed) });
      const batched = Object.fromEntries(answers[seed].outputs.map((t) => [t.name, decodeTensor(t)]));
      expect(batched.y.dims).toEqual([1, 4]);
      expect(Array.from(batched.y.data as Float32Array)).toEqual(Array.from(alone.y.data as Float32Array));
      expect(Array.from(batched.s.data as Float32Array)).toEqual(Array.from(alone.s.data as Float32Array));
    }
    await single.close();
  });

  it('returns only the outputs asked for', async () => {
    const answer = await service.client.modelInfer({
      modelName: TINY_MODEL,
      inputs: [protoInput('x', row(1))],
      outputs: ['s'],
    });
    expect(answer.outputs.map((o) => o.name)).toEqual(['s']);
    expect(Array.from(decodeTensor(answer.outputs[0]).data as Float32Array)).toEqual([
      10 + 0.25 + 11.25 + 12.25 + 13.25,
    ]);
  });

  it('answers NOT_FOUND for an unknown model or version', async () => {
    await expect(service.client.modelInfer({ modelName: 'no-such-model', inputs: [] })).rejects.toMatchObject({
      code: status.NOT_FOUND,
    });
    await expect(service.client.modelMetadata(TINY_MODEL, '9')).rejects.toMatchObject({
      code: status.NOT_FOUND,
    });
  });

  it('answers INVALID_ARGUMENT for wrong dims, byte counts, names or batch sizes', async () => {
    const bad = [
      [protoInput('x', floatTensor([1, 5]))],
      [{ ...protoInput('x', floatTensor([1, 4])), rawContents: Buffer.alloc(3) }],
      [protoInput('pixels', floatTensor([1, 4]))],
      [protoInput('x', floatTensor([9, 4]))],
      [],
    ];
    for (const inputs of bad) {
      await expect(service.client.modelInfer({ modelName: TINY_MODEL, inputs })).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
      });
    }
  });

  it('reports the declared config, thresholds, the provider and device in use and the batch profile picked for it', async () => {
    const metadata = await service.client.modelMetadata(TINY_MODEL);
    expect(metadata).toMatchObject({
      executionProvider: 'cpu',
      device: 'cpu',
      skippedProviders: [],
      maxBatchSize: 8,
    });
    expect(metadata.batchProfile).toEqual({
      device: 'cpu',
      maxBatchSize: 8,
      preferredBatchSize: [4, 8],
      maxQueueDelayMicroseconds: 20_000,
      maxQueueSize: 16,
      warmupBatchSizes: [2],
    });
    expect(metadata.thresholds).toEqual({ example_decision_line: 0.5 });
    expect(metadata.inputs).toEqual([{ name: 'x', datatype: 1, shape: [4], layout: 'NC' }]);
    expect(JSON.parse(metadata.configJson)).toMatchObject({
      name: TINY_MODEL,
      device: 'cpu',
      max_batch_size: 8,
      batching: { cuda: { max_batch_size: 64 } },
    });
    const index = await service.client.repositoryIndex();
    expect(index.models).toEqual([
      { name: TINY_MODEL, version: '1', ready: true, executionProvider: 'cpu', device: 'cpu' },
    ]);
  });

  it('exposes per-model queue time, batch size, run time, requests and errors to Prometheus', async () => {
    await infer(service, 3);
    const text = await (await fetch(`http://127.0.0.1:${service.server.metricsPort}/metrics`)).text();
    for (const series of [
      'inference_requests_total',
      'inference_queue_seconds_count',
      'inference_batch_size_count',
      'inference_run_seconds_count',
    ]) {
      expect(text).toMatch(new RegExp(`^${series}\\{model="${TINY_MODEL}"\\} [1-9]`, 'm'));
    }
    expect(text).toMatch(/^inference_errors_total\{model="tiny-affine",code="INVALID_ARGUMENT"\} [1-9]/m);
    expect(text).toContain(`inference_model_info{model="${TINY_MODEL}",version="1",provider="cpu",device="cpu"} 1`);
  });

  it('restarts a crashed executor: UNAVAILABLE meanwhile, then serving again', async () => {
    const model = service.server.host.find(TINY_MODEL);
    process.kill(model.executor.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    await expect(infer(service, 1)).rejects.toMatchObject({ code: status.UNAVAILABLE });
    await expect(service.client.health()).resolves.toBe('NOT_SERVING');
    const deadline = Date.now() + 20_000;
    while (!(await service.client.modelReady(TINY_MODEL)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    await expect(infer(service, 1)).resolves.toBeDefined();
    await expect(service.client.health()).resolves.toBe('SERVING');
  });
});

describe('ModelService queue limits', () => {
  // A long queue delay and no preferred size keep a request that arrives behind another one
  // waiting (one that finds the model idle runs at once), which makes these exact.
  const repository = tinyRepository({
    editConfig: (c) => ({
      ...c,
      batching: {
        ...c.batching,
        cpu: {
          max_batch_size: 8,
          max_queue_delay_microseconds: 1_500_000,
          max_queue_size: 1,
          warmup_batch_sizes: [1],
        },
      },
    }),
  });
  let service: InferenceService;
  beforeAll(async () => {
    service = await startInferenceService(repository);
  });
  afterAll(async () => {
    await service.stop();
  });

  it('answers RESOURCE_EXHAUSTED when the model queue is full', async () => {
    const [running, queued] = [infer(service, 1), infer(service, 2)];
    await new Promise((r) => setTimeout(r, 300));
    await expect(infer(service, 3)).rejects.toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    await expect(Promise.all([running, queued])).resolves.toHaveLength(2);
  });

  it('never runs a request whose deadline expired in the queue', async () => {
    const before = (await service.client.modelStatistics(TINY_MODEL)).modelStats[0];
    const running = infer(service, 1);
    await expect(infer(service, 2, 300)).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
    await running;
    await new Promise((r) => setTimeout(r, 1_600));
    const after = (await service.client.modelStatistics(TINY_MODEL)).modelStats[0];
    expect(after.executionCount).toBe(before.executionCount + 1);
    expect(after.inferenceStats!.fail!.count).toBe(before.inferenceStats!.fail!.count + 1);
  });
});

describe('ModelService with rows wider than the executor socket buffer', () => {
  // Frames of 256 KiB to several MiB cross the executor socket pair in several rounds (its buffer
  // holds about 200 KB); each caller still gets exactly what a single run gives.
  const wide = (width: number, seed: number) => floatTensor([1, width], (i) => ((seed * 7 + i) % 1000) / 8);

  it.each([
    ['256 KiB rows, alone and batched,', 65_536, 5],
    ['1.25 MiB rows, alone and in batches over 4 MiB,', 327_680, 5],
  ])('answers %s exactly as a single run does', async (_, width, callers) => {
    const repository = tinyRepository({ shape: { width } });
    const service = await startInferenceService(repository);
    const single = await createInProcessModelRunner({ repository });
    try {
      const ask = (seed: number) =>
        service.client.modelInfer({ modelName: TINY_MODEL, inputs: [protoInput('x', wide(width, seed))] });
      const seeds = Array.from({ length: callers }, (_, i) => i);
      const answers = [await ask(99), ...(await Promise.all(seeds.map(ask)))];
      for (const [i, seed] of [99, ...seeds].entries()) {
        const alone = await single.infer(TINY_MODEL, { x: wide(width, seed) });
        const got = Object.fromEntries(answers[i].outputs.map((t) => [t.name, decodeTensor(t)]));
        expect(got.y.dims).toEqual([1, width]);
        const bytes = (t: typeof got.y) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
        expect(bytes(got.y).equals(bytes(alone.y))).toBe(true);
        expect(Array.from(got.s.data as Float32Array)).toEqual(Array.from(alone.s.data as Float32Array));
      }
      const stats = (await service.client.modelStatistics(TINY_MODEL)).modelStats[0];
      expect(stats.batchStats.some((b) => b.batchSize > 1)).toBe(true);
    } finally {
      await single.close();
      await service.stop();
    }
  });
});
