import type { FaceMatchCheck, FaceMatchCheckOutput } from '../task-contracts';
import { analyseFaces } from '../face/analyse-faces';
import { describeFaces } from '../face/face-descriptor';
import { cosine, faceEmbeddingModel } from '../face/face-embedding';
import { decodeRgb } from '../face/rgb-image';
import { configuredThreshold } from '../face/thresholds';

/**
 * Face match: embeds the document portrait and the selfie from eye-aligned crops and holds their
 * cosine similarity to face-embedding's configured `match_similarity` line.
 */
export const matchFaces: FaceMatchCheck = async (runner, input) => {
  const threshold = configuredThreshold(runner, faceEmbeddingModel, 'match_similarity');
  const images = await Promise.all([decodeRgb(input.document_portrait), decodeRgb(input.selfie)]);
  const [portrait, selfie] = await analyseFaces(runner, images);
  if (!portrait || !selfie) {
    const missing = [!portrait && 'document portrait', !selfie && 'selfie'].filter(Boolean).join(' and ');
    return { verdict: 'FAIL', reason: 'FACE_NOT_DETECTED', detail: `no face found in the ${missing}`, scores: [], similarity: null };
  }
  const [a, b] = await describeFaces(runner, [{ image: images[0], analysed: portrait }, { image: images[1], analysed: selfie }]);
  const similarity = cosine(a, b);
  const pass = similarity >= threshold;
  const output: FaceMatchCheckOutput = {
    verdict: pass ? 'PASS' : 'FAIL',
    reason: pass ? null : 'FACE_MATCH_BELOW_THRESHOLD',
    detail: `cosine similarity ${similarity.toFixed(4)} ${pass ? '>=' : '<'} ${threshold}`,
    scores: [{ name: 'cosine_similarity', value: similarity, threshold, comparison: 'gte' }],
    similarity,
  };
  return output;
};
