import type { FaceMatchCheck, FaceMatchCheckOutput } from '../task-contracts';
import { analyseFaces } from '../face/analyse-faces';
import { servedMetric } from '../face/descriptor-metric';
import { describeFaces } from '../face/face-descriptor';
import { faceEmbeddingModel } from '../face/face-embedding';
import { decodeUpload } from '../remembered-work';

/**
 * Face match: embeds the document portrait and the selfie from crops aligned as the served
 * face-embedding model wants, and holds their distance (or similarity) to its configured match line.
 * `similarity` carries that score whatever the metric; the evidence says which and how it compares.
 */
export const matchFaces: FaceMatchCheck = async (runner, input) => {
  const { metric, matchLine } = servedMetric(runner);
  const images = await Promise.all([
    decodeUpload(runner, input.document_portrait, 'document portrait'),
    decodeUpload(runner, input.selfie, 'selfie'),
  ]);
  const [portrait, selfie] = await analyseFaces(runner, images);
  if (!portrait || !selfie) {
    const missing = [!portrait && 'document portrait', !selfie && 'selfie'].filter(Boolean).join(' and ');
    return {
      verdict: 'FAIL',
      reason: 'FACE_NOT_DETECTED',
      detail: `no face found in the ${missing}`,
      scores: [],
      similarity: null,
      selfie_embedding: null,
      embedding_model: null,
    };
  }
  const [a, b] = await describeFaces(runner, [
    { image: images[0], analysed: portrait },
    { image: images[1], analysed: selfie },
  ]);
  const score = metric.compare(a, b);
  const pass = metric.passes(score, matchLine);
  const sign = metric.comparison === 'lte' ? (pass ? '<=' : '>') : pass ? '>=' : '<';
  const output: FaceMatchCheckOutput = {
    verdict: pass ? 'PASS' : 'FAIL',
    reason: pass ? null : 'FACE_MATCH_BELOW_THRESHOLD',
    detail: `${metric.name.replace('_', ' ')} ${score.toFixed(4)} ${sign} ${matchLine}`,
    scores: [{ name: metric.name, value: score, threshold: matchLine, comparison: metric.comparison }],
    similarity: score,
    selfie_embedding: b,
    embedding_model: (({ name, version, sha256 }) => ({ name, version, sha256 }))(runner.config(faceEmbeddingModel)),
  };
  return output;
};
