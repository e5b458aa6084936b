import type { ScoreEvidence } from '../checks/check-results';
import type { FaceSpace, KnownFace } from '../ports/known-faces';

/** What the decision weighs of the search: the policy in force, the closest other identity, the sessions flagged. */
export interface KnownFaceOutcome {
  /** 'fail' only for production sessions of an account that asked for it. */
  policy: 'report' | 'fail';
  /** The closest face of another identity against the match line; null when the gallery had none. */
  score: ScoreEvidence | null;
  /** Sessions of the account whose verified face matches under another identity (ids only). */
  matched_sessions: string[];
  duration_ms: number;
}

/** At most this many matched sessions are named in a report; the count of the rest is not evidence anyone needs. */
export const MAX_NAMED_MATCHES = 10;

/**
 * 1:N search of a selfie's descriptor over the account's verified faces, brute force, with the
 * face-match model's own metric and match line (models/face-embedding/<v>/config.json). Faces
 * verified under the same identity are not compared at all, so a person verifying again is never
 * flagged. Answers the best score among other identities and those on the matching side of the line.
 */
export function searchKnownFaces(
  probe: Float32Array,
  faces: readonly KnownFace[],
  rule: { metric: FaceSpace['metric']; line: number; identityKey: string; sessionId: string },
): { best: number | null; matches: Array<{ session_id: string; score: number }> } {
  const euclidean = rule.metric === 'euclidean_distance';
  const probeNorm = euclidean ? 1 : Math.sqrt(dot(probe, probe)) || 1;
  let best: number | null = null;
  const matches: Array<{ session_id: string; score: number }> = [];
  for (const face of faces) {
    if (face.identity_key === rule.identityKey || face.session_id === rule.sessionId) continue;
    if (face.embedding.length !== probe.length) continue;
    const score = euclidean
      ? Math.sqrt(squaredDistance(probe, face.embedding))
      : dot(probe, face.embedding) / (probeNorm * (Math.sqrt(dot(face.embedding, face.embedding)) || 1));
    const closer = best === null || (euclidean ? score < best : score > best);
    if (closer) best = score;
    if (euclidean ? score <= rule.line : score >= rule.line) matches.push({ session_id: face.session_id, score });
  }
  matches.sort((a, b) => (euclidean ? a.score - b.score : b.score - a.score));
  return { best, matches };
}

/**
 * The report's score: the closest other identity against the line, passing on the side where the
 * face-match check would say "another person" (the opposite comparison to face_match's).
 */
export function knownFaceScore(metric: FaceSpace['metric'], best: number, line: number): ScoreEvidence {
  return {
    name: `closest_other_identity_${metric}`,
    value: best,
    threshold: line,
    comparison: metric === 'euclidean_distance' ? 'gte' : 'lte',
  };
}

/**
 * The identity a face was verified under, normalised so that the same person typed twice gives the
 * same string: letters only, accents folded, case and word order ignored; the date as read.
 */
export function normalisedIdentity(name: string, dob: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean)
    .sort();
  return `${words.join(' ')}|${dob}`;
}

/** A descriptor as the inference repository carries it (base64 of float32, little-endian). */
export function decodeEmbedding(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  return new Float32Array(Uint8Array.from(bytes).buffer);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

function squaredDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    sum += d * d;
  }
  return sum;
}
