import type { ModelRunner } from '../../runtime/model-runner';
import { servedMetric, type DescriptorMetric } from '../face/descriptor-metric';
import { faceLandmarksModel } from '../face/face-landmarks';
import { configuredThreshold } from '../face/thresholds';
import type { ChallengeLimits } from './follow-challenge';

export const passiveLivenessModel = 'passive-liveness';

export interface LivenessSettings {
  limits: ChallengeLimits;
  /** How the served embedding model compares faces. */
  metric: DescriptorMetric;
  /** Each frame's face against the previous frame's: the line that still counts as one person. */
  sameFaceLine: number;
  /** The selfie against the first (frontal) frame: the face-match line, as both face the camera. */
  selfieLine: number;
  minLiveScore: number;
  /** Frames whose face changed shape by less than this (rigid-fit residual / eye distance) show no parallax to measure. */
  parallaxMinDeformation: number;
  /** Below this parallax (homography residual / eye distance) the face moved as a flat picture. */
  minParallax: number;
}

/** Every decision line the liveness check uses, from the served models' configs. */
export function livenessSettings(runner: ModelRunner): LivenessSettings {
  const { metric, matchLine, sameFaceLine } = servedMetric(runner);
  return {
    limits: {
      turnDegrees: configuredThreshold(runner, faceLandmarksModel, 'turn_yaw_degrees'),
      lookDegrees: configuredThreshold(runner, faceLandmarksModel, 'look_pitch_degrees'),
      blinkRatio: configuredThreshold(runner, faceLandmarksModel, 'blink_openness_ratio'),
    },
    metric,
    sameFaceLine,
    selfieLine: matchLine,
    minLiveScore: configuredThreshold(runner, passiveLivenessModel, 'min_live_score'),
    parallaxMinDeformation: configuredThreshold(runner, faceLandmarksModel, 'parallax_min_deformation'),
    minParallax: configuredThreshold(runner, faceLandmarksModel, 'min_planar_parallax'),
  };
}
