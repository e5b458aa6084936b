import { InferenceError } from '../../runtime/inference-error';
import type { ChallengeStep, LivenessCheck, LivenessCheckOutput, ScoreEvidence } from '../task-contracts';
import { analyseFaces, type AnalysedFace } from '../face/analyse-faces';
import { faceCropScores } from '../face/face-crop-scores';
import { describeFaces } from '../face/face-descriptor';
import { cosine } from '../face/face-embedding';
import { headPose } from '../face/mesh-geometry';
import { decodeRgb, type RgbImage } from '../face/rgb-image';
import { followChallenge, type FramePose } from './follow-challenge';
import { livenessSettings, passiveLivenessModel } from './liveness-settings';

/** Frames with a face below this share mean the camera did not see the applicant. */
const minFaceShare = 0.5;

/**
 * Active + passive liveness. From FaceMesh landmarks, each frame's yaw, pitch and eye openness;
 * the frames must perform the challenge's steps in order. The first frame and each step's
 * completing frame must show one person (embedding similarity), and the passive liveness model's
 * median score over those key frames must clear its line.
 */
export const checkLiveness: LivenessCheck = async (runner, input) => {
  if (!input.frames.length || !input.challenge.length) throw new InferenceError('INVALID_ARGUMENT', 'liveness needs at least one frame and one challenge step');
  const settings = livenessSettings(runner);
  const images = await Promise.all(input.frames.map((f) => decodeRgb(f)));
  const analysed = await analyseFaces(runner, images);
  const poses: Array<FramePose | null> = analysed.map((a) => (a ? headPose(a.landmarks.mesh) : null));
  const per_frame = poses.map((p) => ({ yaw: p?.yaw ?? 0, pitch: p?.pitch ?? 0, eye_openness: p?.eyeOpenness ?? 0, face_found: p !== null }));
  const progress = followChallenge(poses, input.challenge, settings.limits);
  const stepScore: ScoreEvidence = { name: 'steps_completed', value: progress.completedAt.length, threshold: input.challenge.length, comparison: 'gte' };
  const found = poses.filter(Boolean).length;
  const fail = (reason: string, failed_step: ChallengeStep | null, detail: string, scores: ScoreEvidence[]): LivenessCheckOutput => ({ verdict: 'FAIL', reason, detail, scores, failed_step, per_frame });

  if (found / images.length < minFaceShare) {
    return fail('FACE_NOT_DETECTED', progress.failedStep ?? input.challenge[0], `a face was found in ${found} of ${images.length} frames`, [stepScore]);
  }
  // The last frame with a face joins the key frames so a swap after the last completed step shows.
  const keyFrames = [poses.findIndex(Boolean), ...progress.completedAt, lastIndex(poses)];
  const faces = keyFrames.map((i) => ({ image: images[i], analysed: analysed[i] as AnalysedFace }));
  const { similarities, live } = await keyFrameScores(runner, faces);
  const minSimilarity = Math.min(1, ...similarities);
  const liveScore = median(live);
  const scores: ScoreEvidence[] = [
    stepScore,
    { name: 'same_face_similarity', value: minSimilarity, threshold: settings.sameFaceSimilarity, comparison: 'gte' },
    { name: 'passive_liveness', value: liveScore, threshold: settings.minLiveScore, comparison: 'gte' },
  ];
  const swappedAt = similarities.findIndex((s) => s < settings.sameFaceSimilarity);
  if (swappedAt >= 0) {
    const frame = keyFrames[swappedAt + 1];
    const step = input.challenge[progress.completedAt.findIndex((c) => c >= frame)] ?? progress.failedStep ?? input.challenge[input.challenge.length - 1];
    return fail('LIVENESS_FAILED', step, `the face changed during step ${step} (frame ${frame}: similarity ${similarities[swappedAt].toFixed(3)} to the first frame)`, scores);
  }
  if (progress.failedStep) return fail('LIVENESS_FAILED', progress.failedStep, `step ${progress.failedStep} was not performed after the previous step`, scores);
  if (liveScore < settings.minLiveScore) return fail('LIVENESS_FAILED', null, `passive liveness ${liveScore.toFixed(3)} < ${settings.minLiveScore}`, scores);
  return { verdict: 'PASS', reason: null, detail: `all ${input.challenge.length} steps performed by one face`, scores, failed_step: null, per_frame };
};

/** Similarity of each step's completing frame to the first frame, and passive scores of all key frames. */
async function keyFrameScores(runner: Parameters<LivenessCheck>[0], faces: Array<{ image: RgbImage; analysed: AnalysedFace }>) {
  const [embeddings, live] = await Promise.all([describeFaces(runner, faces), faceCropScores(runner, passiveLivenessModel, faces)]);
  const similarities = embeddings.slice(1).map((e) => cosine(embeddings[0], e));
  return { similarities, live };
}

function lastIndex<T>(items: Array<T | null>): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i] !== null) return i;
  return -1;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
