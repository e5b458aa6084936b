import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchingPolicy } from '../serving/hosted-model';
import { parseModelConfig } from './model-config-schema';
import { listConfiguredVersions } from './repository-walk';
import { servedConfig } from './served-config';

const MODELS = join(__dirname, '../../../models');
const committed = listConfiguredVersions(MODELS).map((v) => ({
  label: `${v.name} v${v.version}`,
  raw: JSON.parse(readFileSync(v.configPath, 'utf8')) as unknown,
}));

const declared = parseModelConfig({
  name: 'demo',
  version: 1,
  task: 'demo',
  platform: 'onnxruntime',
  file: 'model.onnx',
  sha256: 'a'.repeat(64),
  licence: 'MIT',
  source: { package: 'p', package_version: '1', path: 'm.onnx' },
  inputs: [{ name: 'x', dtype: 'float32', dims: [4] }],
  outputs: [{ name: 'y', dtype: 'float32', dims: [4] }],
  batching: {
    cpu: {
      max_batch_size: 8,
      preferred_batch_size: [4, 8],
      max_queue_delay_microseconds: 2000,
      max_queue_size: 256,
      warmup_batch_sizes: [1],
    },
    cuda: {
      max_batch_size: 64,
      preferred_batch_size: [32, 64],
      max_queue_delay_microseconds: 500,
      max_queue_size: 2048,
      warmup_batch_sizes: [1, 32, 64],
    },
  },
});

describe('the batch profile a model is served with', () => {
  it('is the profile of the device its session opened on', () => {
    expect(servedConfig(declared, 'cuda')).toMatchObject({
      device: 'cuda',
      max_batch_size: 64,
      dynamic_batching: {
        preferred_batch_size: [32, 64],
        max_queue_delay_microseconds: 500,
        max_queue_size: 2048,
      },
    });
    expect(servedConfig(declared, 'cpu')).toMatchObject({
      device: 'cpu',
      max_batch_size: 8,
      dynamic_batching: {
        preferred_batch_size: [4, 8],
        max_queue_delay_microseconds: 2000,
        max_queue_size: 256,
      },
    });
  });

  it('drives the dynamic batcher: GPU batches of 64, CPU batches of 8', () => {
    expect(batchingPolicy(servedConfig(declared, 'cuda'), true)).toEqual({
      maxBatchSize: 64,
      preferredBatchSizes: [32, 64],
      maxQueueDelayMs: 0.5,
      maxQueueSize: 2048,
    });
    expect(batchingPolicy(servedConfig(declared, 'cpu'), true)).toEqual({
      maxBatchSize: 8,
      preferredBatchSizes: [4, 8],
      maxQueueDelayMs: 2,
      maxQueueSize: 256,
    });
    expect(batchingPolicy(servedConfig(declared, 'cuda'), false)).toMatchObject({
      maxBatchSize: 1,
      maxQueueDelayMs: 0,
    });
  });
});

describe('a config.json with the single-profile batching fields', () => {
  it('is refused, naming the fields and where they moved', () => {
    const rest: Partial<typeof declared> = { ...declared };
    delete rest.batching;
    expect(() => parseModelConfig({ ...rest, max_batch_size: 8, execution_providers: ['cuda', 'cpu'] })).toThrow(
      'invalid config.json: max_batch_size, execution_providers moved into batching.cpu and batching.cuda',
    );
  });

  it("is refused when a preferred or warm-up size exceeds its profile's max_batch_size", () => {
    const cuda = { ...declared.batching.cuda, warmup_batch_sizes: [128] };
    expect(() => parseModelConfig({ ...declared, batching: { ...declared.batching, cuda } })).toThrow(
      /batching\.cuda\.warmup_batch_sizes: 128 exceeds max_batch_size 64/,
    );
  });
});

describe.each(committed)('the committed config of $label', ({ raw }) => {
  it('declares a CPU profile and a GPU profile that batches 64 or more and warms up its preferred sizes', () => {
    const config = parseModelConfig(raw);
    expect(config.batching.cuda.max_batch_size).toBeGreaterThanOrEqual(64);
    expect(config.batching.cuda.max_batch_size).toBeGreaterThan(config.batching.cpu.max_batch_size);
    expect(config.batching.cuda.warmup_batch_sizes).toEqual(
      expect.arrayContaining(config.batching.cuda.preferred_batch_size ?? []),
    );
  });
});
