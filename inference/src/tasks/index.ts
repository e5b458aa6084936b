/**
 * The task code's public entry: the four checks, the model roles they call, and the few steps the
 * tools reuse (evaluation scores faces and crops one model at a time; the test-data generators
 * write MRZs the reader must accept). Everything else under tasks/ is internal and may change.
 */
export type * from './task-contracts';
export { checkAntispoof, antispoofModel } from './antispoof/check-antispoof';
export { verifyDocument } from './document/verify-document';
export { matchFaces } from './face-match/match-faces';
export { checkLiveness, observeFrames } from './liveness/check-liveness';

export { textRecognitionModel } from './document/ocr/text-recognition';
// The recogniser's derivation (materialize) and its v1/v2 parity test and bench.
export { recognizeLines, type RecognizedLine } from './document/ocr/text-recognition';
export { detectText, textDetectionModel } from './document/ocr/text-detection';
export { charsetFromText } from './document/ocr/recognition-charset';
export { CTC_HEAD_OUTPUTS } from './document/ocr/recognition-outputs';
export { faceEmbeddingModel } from './face/face-embedding';
export { faceLandmarksModel } from './face/face-landmarks';
export { passiveLivenessModel } from './liveness/liveness-settings';

export { findFaceBoxes } from './antispoof/find-face-box';
export {
  padLines,
  padModels,
  padScores,
  servesPadEnsemble,
  type PadLines,
  type PadScore,
} from './antispoof/pad-ensemble';
export { spreadFrames } from './antispoof/spread-frames';
export { analyseFaces, type AnalysedFace } from './face/analyse-faces';
// The head-pose estimators, measured against the synthetic heads' rendered pose (tools/pose-error).
export { headPose, turnFromCylinderYaw } from './face/mesh-geometry';
export { headRotation } from './face/head-rotation';
export { decodeUpload } from './remembered-work';
export { detectFaces } from './face/detect-faces';
export type { DetectedFace } from './face/face-types';
export { servedMetric } from './face/descriptor-metric';
export { dlibChip } from './face/dlib-chip';
export { faceCropScores } from './face/face-crop-scores';
export { alignmentOf, describeFaces, type FaceAlignment } from './face/face-descriptor';
export { configuredThreshold } from './face/thresholds';

export { checkDigit } from './document/mrz/check-digit';
export { MRZ_LAYOUTS, type MrzFormat } from './document/mrz/mrz-layouts';
export { mrzNameField } from './document/mrz/transliterate';
export { findPortrait } from './document/portrait/find-portrait';
export { checkLegacyAntispoof } from './antispoof/legacy-antispoof';
export type { Box } from './antispoof/pad-crop';
