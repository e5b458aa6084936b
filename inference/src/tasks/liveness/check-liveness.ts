import { InferenceError } from '../../runtime/inference-error';
import type { ModelRunner } from '../../runtime/model-runner';
import type { ChallengeStep, LivenessCheck, LivenessCheckOutput, ScoreEvidence } from '../task-contracts';
import { analyseFaces, type AnalysedFace } from '../face/analyse-faces';
import { faceCropScores } from '../face/face-crop-scores';
import { describeFaces } from '../face/face-descriptor';
import { eyeCentres, headPose } from '../face/mesh-geometry';
import type { RgbImage } from '../../images/decode-image';
import { decodeUpload } from '../remembered-work';
import { followChallenge, type FramePose } from './follow-challenge';
import { livenessSettings, passiveLivenessModel } from './liveness-settings';
import { measurePlanarMotion, type MotionFrame } from './planar-motion';

/** Frames with a face below this share mean the camera did not see the applicant. */
const minFaceShare = 0.5;

type Face = { image: RgbImage; analysed: AnalysedFace };

/**
 * Active + passive liveness. From FaceMesh landmarks, each frame's yaw, pitch and eye openness;
 * the frames must perform the challenge's steps in order. Every frame with a face must show the
 * person of the frame before it (embedding distance), so one person performs the whole sequence;
 * the selfie, when given, must show the person of the first (frontal) frame; and the
 * passive liveness model's median score over the key frames (first, each step's, last) must
 * clear its line; and once a turn or look step was performed, the landmark motion must show
 * parallax that no single homography explains (a print or a screen turned in front of the camera
 * moves as a plane: SPOOF_DETECTED). Every score is reported with its line.
 */
export const checkLiveness: LivenessCheck = async (runner, input) => {
  if (!input.frames.length || !input.challenge.length)
    throw new InferenceError('INVALID_ARGUMENT', 'liveness needs at least one frame and one challenge step');
  const settings = livenessSettings(runner);
  const images = await Promise.all(input.frames.map((f, i) => decodeUpload(runner, f, `frame ${i}`)));
  const analysed = await analyseFaces(runner, images);
  const poses: Array<FramePose | null> = analysed.map((a) => (a ? headPose(a.landmarks.mesh) : null));
  const per_frame = poses.map((p) => ({
    yaw: p?.yaw ?? 0,
    pitch: p?.pitch ?? 0,
    eye_openness: p?.eyeOpenness ?? 0,
    face_found: p !== null,
  }));
  const progress = followChallenge(poses, input.challenge, settings.limits);
  const stepScore: ScoreEvidence = {
    name: 'steps_completed',
    value: progress.completedAt.length,
    threshold: input.challenge.length,
    comparison: 'gte',
  };
  const withFace = poses.flatMap((p, i) => (p ? [i] : []));
  const fail = (
    reason: string,
    failed_step: ChallengeStep | null,
    detail: string,
    scores: ScoreEvidence[],
  ): LivenessCheckOutput => ({ verdict: 'FAIL', reason, detail, scores, failed_step, per_frame });
  if (withFace.length / images.length < minFaceShare) {
    return fail(
      'FACE_NOT_DETECTED',
      progress.failedStep ?? input.challenge[0],
      `a face was found in ${withFace.length} of ${images.length} frames`,
      [stepScore],
    );
  }
  const faces: Face[] = withFace.map((i) => ({ image: images[i], analysed: analysed[i] as AnalysedFace }));
  const keyFrames = [...new Set([withFace[0], ...progress.completedAt, withFace[withFace.length - 1]])];
  const selfie = input.selfie ? await selfieFace(runner, input.selfie) : undefined;
  if (selfie === null) return fail('FACE_NOT_DETECTED', null, 'no face found in the selfie', [stepScore]);
  const [embeddings, live] = await Promise.all([
    describeFaces(runner, selfie ? [...faces, selfie] : faces),
    faceCropScores(
      runner,
      passiveLivenessModel,
      keyFrames.map((i) => ({ image: images[i], analysed: analysed[i] as AnalysedFace })),
    ),
  ]);
  const { metric } = settings;
  // Each face against the one before it: a change of person shows as a jump between neighbours,
  // while a deep turn or look, far from the first frame's pose, is still close to its neighbour.
  const toPrevious = faces.map((_, k) => metric.compare(embeddings[Math.max(0, k - 1)], embeddings[k]));
  const worst = metric.comparison === 'lte' ? Math.max(...toPrevious) : Math.min(...toPrevious);
  const liveScore = median(live);
  const scoreSuffix = metric.comparison === 'lte' ? 'distance' : 'similarity';
  const sameFace: ScoreEvidence = {
    name: `same_face_${scoreSuffix}`,
    value: worst,
    threshold: settings.sameFaceLine,
    comparison: metric.comparison,
  };
  const scores: ScoreEvidence[] = [
    stepScore,
    sameFace,
    { name: 'passive_liveness', value: liveScore, threshold: settings.minLiveScore, comparison: 'gte' },
  ];
  const motion = measurePlanarMotion(
    faces.map(({ analysed: a }) => motionFrame(a)),
    settings.parallaxMinDeformation,
  );
  if (motion.parallax !== null)
    scores.push({
      name: 'planar_parallax',
      value: motion.parallax,
      threshold: settings.minParallax,
      comparison: 'gte',
    });
  const selfieScore = selfie ? metric.compare(embeddings[0], embeddings[faces.length]) : null;
  if (selfieScore !== null)
    scores.push({
      name: `selfie_${scoreSuffix}`,
      value: selfieScore,
      threshold: settings.selfieLine,
      comparison: metric.comparison,
    });
  const changedAt = toPrevious.findIndex((d) => !metric.passes(d, settings.sameFaceLine));
  if (changedAt >= 0) {
    const frame = withFace[changedAt];
    const step =
      input.challenge[progress.completedAt.findIndex((c) => c >= frame)] ??
      progress.failedStep ??
      input.challenge[input.challenge.length - 1];
    return fail(
      'LIVENESS_FAILED',
      step,
      `the face changed during step ${step} (frame ${frame}: ${metric.name} ${toPrevious[changedAt].toFixed(3)} to the frame before)`,
      scores,
    );
  }
  // Judged once a turn or look step was performed: a flat picture that got that far faked the turn,
  // while small movements (talking, settling) show too little parallax to judge either way.
  const turned = progress.completedAt.some((_, i) => input.challenge[i] !== 'BLINK');
  if (turned && motion.parallax !== null && motion.parallax < settings.minParallax) {
    return fail(
      'SPOOF_DETECTED',
      progress.failedStep,
      `the face moved as a flat picture: one homography explains its landmarks (parallax ${motion.parallax.toFixed(4)} < ${settings.minParallax} of the eye distance, ${motion.framesMeasured} frames measured)`,
      scores,
    );
  }
  if (progress.failedStep)
    return fail(
      'LIVENESS_FAILED',
      progress.failedStep,
      `step ${progress.failedStep} was not performed after the previous step`,
      scores,
    );
  if (liveScore < settings.minLiveScore)
    return fail('LIVENESS_FAILED', null, `passive liveness ${liveScore.toFixed(3)} < ${settings.minLiveScore}`, scores);
  if (selfieScore !== null && !metric.passes(selfieScore, settings.selfieLine)) {
    return fail(
      'LIVENESS_FAILED',
      null,
      `the selfie shows another person than the liveness frames (${metric.name} ${selfieScore.toFixed(3)} to the first frame)`,
      scores,
    );
  }
  return {
    verdict: 'PASS',
    reason: null,
    detail: `all ${input.challenge.length} steps performed by one face${selfie ? ", the selfie's" : ''}`,
    scores,
    failed_step: null,
    per_frame,
  };
};

function motionFrame(face: AnalysedFace): MotionFrame {
  const { right, left } = eyeCentres(face.landmarks.mesh);
  return {
    points: face.landmarks.mesh.map(([x, y]) => [x, y]),
    eyeDistance: Math.hypot(left[0] - right[0], left[1] - right[1]),
  };
}

async function selfieFace(runner: ModelRunner, bytes: Uint8Array): Promise<Face | null> {
  const image = await decodeUpload(runner, bytes, 'selfie');
  const [analysed] = await analyseFaces(runner, [image]);
  return analysed ? { image, analysed } : null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
