import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { materializeRepository } from './materialize-repository';
import { sha256 } from '../../src/repository/file-sha256';

const weights = Buffer.from('pretend these are weights');
const charset = Buffer.from('a\nb\n');
let root: string;

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

function config(overrides: { sha256?: string; package_version?: string } = {}) {
  return {
    name: 'demo',
    version: 1,
    task: 'demo',
    platform: 'onnxruntime',
    file: 'model.onnx',
    sha256: overrides.sha256 ?? sha256(weights),
    licence: 'MIT',
    source: {
      package: '@acme/models',
      package_version: overrides.package_version ?? '1.0.0',
      path: 'files/demo.onnx',
      assets: { 'charset.txt': { path: 'files/charset.txt', sha256: sha256(charset) } },
    },
    inputs: [{ name: 'x', dtype: 'float32', dims: [3] }],
    outputs: [{ name: 'y', dtype: 'float32', dims: [1] }],
    batching: {
      cpu: { max_batch_size: 1, max_queue_delay_microseconds: 0, warmup_batch_sizes: [1] },
      cuda: { max_batch_size: 64, max_queue_delay_microseconds: 0, warmup_batch_sizes: [1] },
    },
  };
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'materialize-'));
  await writeJson(path.join(root, 'node_modules/@acme/models/package.json'), {
    name: '@acme/models',
    version: '1.0.0',
  });
  await mkdir(path.join(root, 'node_modules/@acme/models/files'), { recursive: true });
  await writeFile(path.join(root, 'node_modules/@acme/models/files/demo.onnx'), weights);
  await writeFile(path.join(root, 'node_modules/@acme/models/files/charset.txt'), charset);
  await mkdir(path.join(root, 'models/staging'), { recursive: true }); // no version folder: nothing to materialize
});

afterEach(() => rm(root, { recursive: true, force: true }));

const run = () => materializeRepository(path.join(root, 'models'), path.join(root, 'node_modules'));
const modelFile = () => path.join(root, 'models/demo/1/model.onnx');

test('copies the model and its assets from the pinned package into the version folder', async () => {
  await writeJson(path.join(root, 'models/demo/1/config.json'), config());
  const report = await run();
  expect(report.failures).toEqual([]);
  expect(report.done[0].files).toEqual([
    { file: 'model.onnx', outcome: 'written' },
    { file: 'charset.txt', outcome: 'written' },
  ]);
  expect(await readFile(modelFile())).toEqual(weights);
  expect(await readFile(path.join(root, 'models/demo/1/charset.txt'))).toEqual(charset);
});

test('a second run leaves files whose sha256 already matches untouched', async () => {
  await writeJson(path.join(root, 'models/demo/1/config.json'), config());
  await run();
  const before = (await stat(modelFile())).mtimeMs;
  const report = await run();
  expect(report.done[0].files.map((f) => f.outcome)).toEqual(['present', 'present']);
  expect((await stat(modelFile())).mtimeMs).toBe(before);
});

test('a damaged model file is produced again', async () => {
  await writeJson(path.join(root, 'models/demo/1/config.json'), config());
  await run();
  await writeFile(modelFile(), 'truncated');
  const report = await run();
  expect(report.done[0].files[0]).toEqual({ file: 'model.onnx', outcome: 'written' });
  expect(await readFile(modelFile())).toEqual(weights);
});

test('a sha256 mismatch fails naming the model and writes nothing', async () => {
  await writeJson(path.join(root, 'models/demo/1/config.json'), config({ sha256: 'f'.repeat(64) }));
  const report = await run();
  expect(report.failures.map((f) => f.message)).toEqual([
    `model "demo" version 1: model.onnx has sha256 ${sha256(weights)} but config.json pins ${'f'.repeat(64)}`,
  ]);
  await expect(stat(modelFile())).rejects.toThrow(/ENOENT/);
});

test('a package version other than the pinned one fails before anything is read', async () => {
  await writeJson(path.join(root, 'models/demo/1/config.json'), config({ package_version: '2.0.0' }));
  const report = await run();
  expect(report.failures[0].message).toBe(
    'model "demo" version 1: config pins @acme/models@2.0.0 but 1.0.0 is installed',
  );
});

test('a config copied into a new folder without renaming it is refused', async () => {
  await writeJson(path.join(root, 'models/demo/2/config.json'), config());
  await expect(run()).rejects.toThrow('model "demo" version 2: config.json says version 1');
});

describe('a model committed to the repository', () => {
  const committed = Buffer.from('pretend these are committed weights');
  const committedConfig = (committedPath: string, pinned = sha256(committed)) => ({
    ...config(),
    sha256: pinned,
    source: { committed: committedPath, upstream: 'https://example.org/upstream' },
  });
  beforeEach(async () => {
    await mkdir(path.join(root, 'tools/onnx'), { recursive: true });
    await writeFile(path.join(root, 'tools/onnx/demo.onnx'), committed);
  });

  test('is copied from its path in the repository into the version folder', async () => {
    await writeJson(path.join(root, 'models/demo/1/config.json'), committedConfig('tools/onnx/demo.onnx'));
    const report = await run();
    expect(report.failures).toEqual([]);
    expect(report.done[0].files).toEqual([{ file: 'model.onnx', outcome: 'written' }]);
    expect(await readFile(modelFile())).toEqual(committed);
  });

  test('whose bytes differ from the pinned sha256 fails naming the model and writes nothing', async () => {
    await writeJson(
      path.join(root, 'models/demo/1/config.json'),
      committedConfig('tools/onnx/demo.onnx', 'e'.repeat(64)),
    );
    const report = await run();
    expect(report.failures.map((f) => f.message)).toEqual([
      `model "demo" version 1: model.onnx has sha256 ${sha256(committed)} but config.json pins ${'e'.repeat(64)}`,
    ]);
    await expect(stat(modelFile())).rejects.toThrow(/ENOENT/);
  });

  test('whose path climbs out of the repository is refused', async () => {
    await writeJson(path.join(root, 'models/demo/1/config.json'), committedConfig('../outside.onnx'));
    const report = await run();
    expect(report.failures[0].message).toBe(
      'model "demo" version 1: committed path ../outside.onnx leaves the repository',
    );
  });
});
