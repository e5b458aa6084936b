import { InferenceError } from '../../runtime/inference-error';
import type { ModelRunner } from '../../runtime/model-runner';
import type {
  ChallengeStep,
  FrameObserver,
  LivenessCheck,
  LivenessCheckOutput,
  PacedStepInput,
  ScoreEvidence,
} from '../task-contracts';
import { analyseFaces, type AnalysedFace } from '../face/analyse-faces';
import { faceCropScores } from '../face/face-crop-scores';
import { describeFaces } from '../face/face-descriptor';
import { eyeCentres, headPose, mouthOpenness } from '../face/mesh-geometry';
import type { RgbImage } from '../../images/decode-image';
import { decodeUpload } from '../remembered-work';
import { followChallenge, type ChallengeProgress, type FramePose } from './follow-challenge';
import { followPaced, PACED_LINES, pacedKeyFrames, type PacedProgress } from './follow-paced';
import { nonrigidDeformation } from './nonrigid-deformation';
import { parallaxFrames } from './parallax-frames';
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
/** Each frame's face, pose and mouth opening, and nothing else: the paced challenge's upload gate. */
export const observeFrames: FrameObserver = async (runner, frames) => {
  const images = await Promise.all(frames.map((f, i) => decodeUpload(runner, f, `frame ${i}`)));
  const analysed = await analyseFaces(runner, images);
  return analysed.map((a) => observation(a));
};

function observation(a: AnalysedFace | null) {
  const p = a ? headPose(a.landmarks.mesh) : null;
  return {
    yaw: p?.yaw ?? 0,
    pitch: p?.pitch ?? 0,
    eye_openness: p?.eyeOpenness ?? 0,
    face_found: p !== null,
    mouth_openness: a ? mouthOpenness(a.landmarks.mesh) : 0,
  };
}

export const checkLiveness: LivenessCheck = async (runner, input) => {
  const paced = input.paced?.length ? input.paced : null;
  if (!input.frames.length || (!input.challenge.length && !paced))
    throw new InferenceError('INVALID_ARGUMENT', 'liveness needs at least one frame and one challenge step');
  const settings = livenessSettings(runner);
  const images = await Promise.all(input.frames.map((f, i) => decodeUpload(runner, f, `frame ${i}`)));
  const analysed = await analyseFaces(runner, images);
  const poses: Array<FramePose | null> = analysed.map((a) => (a ? headPose(a.landmarks.mesh) : null));
  const per_frame = analysed.map((a) => observation(a));
  const pacedProgress = paced
    ? followPaced(
        per_frame.map((f) => (f.face_found ? { yaw: f.yaw, pitch: f.pitch, mouthOpenness: f.mouth_openness } : null)),
        paced,
      )
    : null;
  const progress: ChallengeProgress = pacedProgress
    ? { completedAt: pacedKeyFrames(pacedProgress, paced as PacedStepInput[], poses), failedStep: null }
    : followChallenge(poses, input.challenge, settings.limits);
  const challengeLength = paced ? paced.length : input.challenge.length;
  const stepScore: ScoreEvidence = {
    name: 'steps_completed',
    value: progress.completedAt.length,
    threshold: challengeLength,
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
      progress.failedStep ?? input.challenge[0] ?? null,
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
  // Parallax is measured on the turns, not on the mouth step (parallax-frames.ts says why).
  const turning = new Set(parallaxFrames(withFace, paced));
  const motion = measurePlanarMotion(
    faces.flatMap(({ analysed: a }, k) => (turning.has(withFace[k]) ? [motionFrame(a)] : [])),
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
  // Measured before any verdict, so the evidence report carries the paced scores whatever fails first.
  const pacedProblem = paced ? judgePaced(pacedProgress as PacedProgress, paced, analysed, scores) : null;
  const changedAt = toPrevious.findIndex((d) => !metric.passes(d, settings.sameFaceLine));
  if (changedAt >= 0) {
    const frame = withFace[changedAt];
    const step =
      input.challenge[progress.completedAt.findIndex((c) => c >= frame)] ??
      progress.failedStep ??
      input.challenge[input.challenge.length - 1] ??
      null;
    return fail(
      'LIVENESS_FAILED',
      step,
      `the face changed during step ${step} (frame ${frame}: ${metric.name} ${toPrevious[changedAt].toFixed(3)} to the frame before)`,
      scores,
    );
  }
  // Judged once a turn or look step was performed: a flat picture that got that far faked the turn,
  // while small movements (talking, settling) show too little parallax to judge either way.
  const turned = paced
    ? (pacedProgress as PacedProgress).steps.some((r) => r.kind === 'HOLD_POSE' && r.problem === null)
    : progress.completedAt.some((_, i) => input.challenge[i] !== 'BLINK');
  if (turned && motion.parallax !== null && motion.parallax < settings.minParallax) {
    return fail(
      'SPOOF_DETECTED',
      progress.failedStep,
      `the face moved as a flat picture: one homography explains its landmarks (parallax ${motion.parallax.toFixed(4)} < ${settings.minParallax} of the eye distance, ${motion.framesMeasured} frames measured)`,
      scores,
    );
  }
  if (pacedProblem) return fail('LIVENESS_FAILED', null, pacedProblem, scores);
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
    detail: `all ${challengeLength} steps performed by one face${selfie ? ", the selfie's" : ''}`,
    scores,
    failed_step: null,
    per_frame,
  };
};

/**
 * The paced challenge's own checks, added to the scores: every step followed (targets held, no
 * target met before a person could react, no frame after a deadline), the pose continuous (no
 * turn faster than a head turns), and the OPEN_MOUTH step deforming the face beyond a rigid fit.
 * Answers the first problem, or null.
 */
function judgePaced(
  progress: PacedProgress,
  steps: PacedStepInput[],
  analysed: Array<AnalysedFace | null>,
  scores: ScoreEvidence[],
): string | null {
  scores.push({
    name: 'paced_fastest_turn_deg_per_s',
    value: progress.fastestTurn,
    threshold: PACED_LINES.maxDegreesPerSecond,
    comparison: 'lte',
  });
  // Each step's own measure against its line, so a refused applicant's report says which step and by how much.
  progress.steps.forEach((r) =>
    scores.push(
      r.kind === 'OPEN_MOUTH'
        ? {
            name: `paced_step_${r.index + 1}_mouth_gain`,
            value: r.measure,
            threshold: PACED_LINES.minMouthGain,
            comparison: 'gte',
          }
        : {
            name: `paced_step_${r.index + 1}_held_ms`,
            value: r.measure,
            threshold: steps[r.index].hold_ms * PACED_LINES.holdShare,
            comparison: 'gte',
          },
    ),
  );
  const mouthIndex = steps.findIndex((s) => s.kind === 'OPEN_MOUTH');
  const deformation = mouthIndex >= 0 ? mouthDeformation(steps, mouthIndex, analysed) : null;
  if (deformation !== null)
    scores.push({
      name: 'nonrigid_deformation',
      value: deformation,
      threshold: PACED_NONRIGID_LINE,
      comparison: 'gte',
    });
  const unfollowed = progress.steps.find((r) => r.problem !== null);
  if (unfollowed) return `paced step ${unfollowed.index + 1} (${unfollowed.kind}) not followed: ${unfollowed.problem}`;
  if (progress.fastestTurn > PACED_LINES.maxDegreesPerSecond)
    return `the pose jumped (${Math.round(progress.fastestTurn)}°/s between two frames): a cut, not a moving head`;
  if (mouthIndex < 0) return 'the paced challenge had no non-rigid step';
  if (deformation === null || deformation < PACED_NONRIGID_LINE)
    return `the face did not deform when the mouth opened (${(deformation ?? 0).toFixed(3)} of the eye distance after a rigid fit): a rigid head`;
  return null;
}

/** Mouth and jaw residual after a rigid fit (eye distances), between the most open frame of the OPEN_MOUTH step and the resting frame nearest it in pose. */
const PACED_NONRIGID_LINE = 0.035;
/** How far (yaw + pitch, degrees) an OPEN_MOUTH frame may lie from the step's median pose to count as held there. */
const SETTLED_DEGREES = 10;

function mouthDeformation(
  steps: PacedStepInput[],
  mouthIndex: number,
  analysed: Array<AnalysedFace | null>,
): number | null {
  const step = steps[mouthIndex];
  const meshOf = (i: number) => (analysed[i] as AnalysedFace).landmarks.mesh;
  const own = Array.from({ length: step.frame_count }, (_, k) => step.first_frame + k).filter((i) => analysed[i]);
  if (!own.length) return null;
  // The step's frames at its own pose, not those still turning towards it: the estimator reads a
  // turned face's mouth as more open, and a 2D fit cannot explain a turn, so a rigid head caught
  // mid-turn looked deformed (0.094 in a CI run, against 0.014 facing the camera).
  const poses = own.map((i) => headPose(meshOf(i)));
  const centre = { yaw: median(poses.map((p) => p.yaw)), pitch: median(poses.map((p) => p.pitch)) };
  const settled = own.filter(
    (_, k) => Math.abs(poses[k].yaw - centre.yaw) + Math.abs(poses[k].pitch - centre.pitch) <= SETTLED_DEGREES,
  );
  const peak = (settled.length ? settled : own).reduce((best, i) =>
    mouthOpenness(meshOf(i)) > mouthOpenness(meshOf(best)) ? i : best,
  );
  // Resting frames are the other steps' frames with the mouth closed: the next step's first frames
  // may still show it open, and against those even a live face would not deform. A mouth that
  // never opened leaves none closed below its peak; then any other frame will do.
  const others = analysed.flatMap((a, i) =>
    a && (i < step.first_frame || i >= step.first_frame + step.frame_count) ? [{ a, i }] : [],
  );
  const closedBelow = mouthOpenness(meshOf(peak)) - PACED_LINES.minMouthGain;
  const closed = others.filter(({ a }) => mouthOpenness(a.landmarks.mesh) <= closedBelow);
  const resting = closed.length ? closed : others;
  if (!resting.length) return null;
  // The resting frame nearest in pose to the open one (the challenge starts facing the camera), so
  // the 2D rigid fit has no head rotation to explain, only the mouth.
  const pose = headPose(meshOf(peak));
  const apart = (i: number) => {
    const p = headPose(meshOf(i));
    return Math.abs(p.yaw - pose.yaw) + Math.abs(p.pitch - pose.pitch);
  };
  const rest = resting.reduce((best, c) => (apart(c.i) < apart(best.i) ? c : best)).i;
  return nonrigidDeformation(meshOf(rest), meshOf(peak));
}

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
