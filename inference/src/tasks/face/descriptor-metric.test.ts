import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelConfig, ModelRunner } from '../../runtime/model-runner';
import { cosine, euclidean, servedMetric } from './descriptor-metric';

/** A runner that serves the committed config of face-embedding version `v` (nothing is inferred). */
const serving = (v: number): ModelRunner => {
  const config = JSON.parse(
    readFileSync(path.join(__dirname, `../../../../models/face-embedding/${v}/config.json`), 'utf8'),
  ) as ModelConfig;
  return { config: () => config, infer: () => Promise.reject(new Error('not used')) };
};

describe('comparing face descriptors', () => {
  const a = Float32Array.from([3, 4, 0]);
  const b = Float32Array.from([0, 4, 3]);

  it('measures Euclidean distance on the raw descriptors and accepts at or under the line', () => {
    expect(euclidean.compare(a, b)).toBeCloseTo(Math.SQRT2 * 3, 6);
    expect(euclidean.passes(0.45, 0.45)).toBe(true);
    expect(euclidean.passes(0.46, 0.45)).toBe(false);
    expect(euclidean.comparison).toBe('lte');
  });

  it("measures cosine similarity whatever the descriptors' lengths and accepts at or over the line", () => {
    expect(cosine.compare(a, Float32Array.from([6, 8, 0]))).toBeCloseTo(1, 6);
    expect(cosine.compare(a, b)).toBeCloseTo(16 / 25, 6);
    expect(cosine.passes(0.7, 0.7)).toBe(true);
    expect(cosine.passes(0.69, 0.7)).toBe(false);
    expect(cosine.comparison).toBe('gte');
  });

  it('follows the served version: the dlib ResNet (v3) by distance, faceres (v1) by similarity, each with its own lines', () => {
    expect(servedMetric(serving(3))).toEqual({ metric: euclidean, matchLine: 0.52, sameFaceLine: 0.58 });
    expect(servedMetric(serving(1))).toEqual({ metric: cosine, matchLine: 0.7, sameFaceLine: 0.6 });
  });
});
