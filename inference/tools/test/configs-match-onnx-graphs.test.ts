/**
 * Every committed config.json must describe its model.onnx exactly: the same input and output
 * names, dtypes and dims (the batch dim added in front). Runs materialize first,
 * which also proves each file hashes to the pinned sha256.
 */
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { TensorSpec } from '../../src/runtime/model-runner';
import { materializeRepository } from '../materializer/materialize-repository';
import { committedVersions, MODELS_DIR, PACKAGES_DIR } from './support/repository-configs';

type Described = { name: string; dtype: string; dims: Array<number | string> };

/** Free dims print as "?" whether ONNX calls them -1 or gives them a symbolic name. */
const free = (d: number | string) => (typeof d === 'string' || d === -1 ? '?' : d);

function fromGraph(meta: readonly ort.InferenceSession.ValueMetadata[]): Described[] {
  return meta.map((m) =>
    m.isTensor
      ? { name: m.name, dtype: m.type, dims: m.shape.map(free) }
      : { name: m.name, dtype: 'non-tensor', dims: [] },
  );
}

function fromConfig(specs: TensorSpec[], batched: boolean): Described[] {
  return specs.map((s) => ({
    name: s.name,
    dtype: s.dtype,
    dims: (batched ? [-1, ...s.dims] : s.dims).map(free),
  }));
}

const byName = (list: Described[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));

beforeAll(async () => {
  const report = await materializeRepository(MODELS_DIR, PACKAGES_DIR);
  expect(report.failures.map((f) => f.message)).toEqual([]);
}, 120_000);

describe.each(committedVersions())('$label', ({ dir, config }) => {
  test('config.json declares exactly the inputs and outputs of model.onnx', async () => {
    const session = await ort.InferenceSession.create(path.join(dir, config.file));
    const batched = true; // every model declares batch profiles, so its graph takes a free batch dim
    expect(byName(fromConfig(config.inputs, batched))).toEqual(byName(fromGraph(session.inputMetadata)));
    expect(byName(fromConfig(config.outputs, batched))).toEqual(byName(fromGraph(session.outputMetadata)));
    await session.release();
  });
});

test('face-embedding versions agree on what face match reads, so the served one can be swapped by config', () => {
  const versions = committedVersions().filter((v) => v.config.name === 'face-embedding');
  expect(versions.length).toBeGreaterThan(1);
  for (const { config } of versions) {
    expect(config.inputs.map((i) => i.name)).toEqual(['image']);
    expect(config.outputs.map((o) => o.name)).toContain('embedding');
    // A distance model carries distance lines, a similarity model similarity lines; face match reads either.
    const lines = Object.keys(config.thresholds ?? {})
      .filter((k) => k.startsWith('match_') || k.startsWith('same_face_'))
      .sort();
    expect([
      ['match_distance', 'same_face_distance'],
      ['match_similarity', 'same_face_similarity'],
    ]).toContainEqual(lines);
  }
});
