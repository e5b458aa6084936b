/**
 * How two face descriptors are compared, decided by the served embedding model's config: a model
 * with `match_distance` is judged by Euclidean distance (lower is closer; dlib's metric), one with
 * `match_similarity` by cosine similarity of the L2-normalised vectors (higher is closer). The
 * evidence carries the comparison, so either reads correctly in a report.
 */
import type { ModelRunner } from '../../runtime/model-runner';
import { faceEmbeddingModel } from './face-embedding';
import { configuredThreshold } from './thresholds';

export interface DescriptorMetric {
  /** Score name in the evidence, e.g. `euclidean_distance`. */
  name: 'euclidean_distance' | 'cosine_similarity';
  comparison: 'gte' | 'lte';
  compare(a: Float32Array, b: Float32Array): number;
  /** Whether `value` is on the accepting side of `line`. */
  passes(value: number, line: number): boolean;
}

export const euclidean: DescriptorMetric = {
  name: 'euclidean_distance',
  comparison: 'lte',
  compare: (a, b) => Math.sqrt(a.reduce((sum, v, i) => sum + (v - b[i]) ** 2, 0)),
  passes: (value, line) => value <= line,
};

export const cosine: DescriptorMetric = {
  name: 'cosine_similarity',
  comparison: 'gte',
  compare: (a, b) => {
    let dot = 0;
    for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
    return dot / ((Math.hypot(...a) || 1) * (Math.hypot(...b) || 1));
  },
  passes: (value, line) => value >= line,
};

/** The metric of the served model and its lines for a document match and for one person across frames. */
export function servedMetric(runner: ModelRunner): {
  metric: DescriptorMetric;
  matchLine: number;
  sameFaceLine: number;
} {
  const thresholds = runner.config(faceEmbeddingModel).thresholds ?? {};
  if ('match_distance' in thresholds) {
    return {
      metric: euclidean,
      matchLine: configuredThreshold(runner, faceEmbeddingModel, 'match_distance'),
      sameFaceLine: configuredThreshold(runner, faceEmbeddingModel, 'same_face_distance'),
    };
  }
  return {
    metric: cosine,
    matchLine: configuredThreshold(runner, faceEmbeddingModel, 'match_similarity'),
    sameFaceLine: configuredThreshold(runner, faceEmbeddingModel, 'same_face_similarity'),
  };
}
