import type { ModelRunner } from '../../runtime/model-runner';
import { faceEmbeddingModel } from '../face/face-embedding';
import { faceLandmarksModel } from '../face/face-landmarks';
import { configuredThreshold } from '../face/thresholds';
import type { ChallengeLimits } from './follow-challenge';

export const passiveLivenessModel = 'passive-liveness';

export interface LivenessSettings {
  limits: ChallengeLimits;
  /** Lowest cosine similarity between key frames' faces that still counts as one person. */
  sameFaceSimilarity: number;
  minLiveScore: number;
}

/** Every decision line the liveness check uses, from the served models' configs. */
export function livenessSettings(runner: ModelRunner): LivenessSettings {
  return {
    limits: {
      turnDegrees: configuredThreshold(runner, faceLandmarksModel, 'turn_yaw_degrees'),
      lookDegrees: configuredThreshold(runner, faceLandmarksModel, 'look_pitch_degrees'),
      blinkRatio: configuredThreshold(runner, faceLandmarksModel, 'blink_openness_ratio'),
    },
    sameFaceSimilarity: configuredThreshold(runner, faceEmbeddingModel, 'same_face_similarity'),
    minLiveScore: configuredThreshold(runner, passiveLivenessModel, 'min_live_score'),
  };
}
