import type { ModelRunner } from '../../runtime/model-runner';
import { detectFaces } from './detect-faces';
import { faceLandmarks, faceLandmarksModel } from './face-landmarks';
import type { DetectedFace, FaceLandmarks } from './face-types';
import type { RgbImage } from '../../images/rgb-image';
import { rememberedEach } from '../remembered-work';

export interface AnalysedFace {
  /** The largest face in the image: the applicant in a selfie or the portrait on a document. */
  face: DetectedFace;
  landmarks: FaceLandmarks;
  /** Other faces the detector found (a second person in frame is worth reporting). */
  otherFaces: number;
}

/**
 * Detects faces in every image (one batch), keeps the largest and runs FaceMesh on it. An image
 * yields null when no face is found or FaceMesh does not confirm one in the crop.
 */
export function analyseFaces(runner: ModelRunner, images: RgbImage[]): Promise<Array<AnalysedFace | null>> {
  return rememberedEach(
    runner,
    'analysed',
    images,
    (image) => image.source,
    (missing) => analyseAll(runner, missing),
  );
}

async function analyseAll(runner: ModelRunner, images: RgbImage[]): Promise<Array<AnalysedFace | null>> {
  const detections = await detectFaces(runner, images);
  const primary = detections.map((faces) => largest(faces));
  const wanted = primary.flatMap((face, i) => (face ? [{ image: images[i], face }] : []));
  const landmarks = await faceLandmarks(runner, wanted);
  const minMeshScore = runner.config(faceLandmarksModel).thresholds?.min_face_score ?? 0.5;
  let next = 0;
  return primary.map((face, i) => {
    if (!face) return null;
    const mesh = landmarks[next++];
    if (mesh.score < minMeshScore) return null;
    return { face, landmarks: mesh, otherFaces: detections[i].length - 1 };
  });
}

function largest(faces: DetectedFace[]): DetectedFace | null {
  return faces.reduce<DetectedFace | null>(
    (best, f) => (!best || f.box.width * f.box.height > best.box.width * best.box.height ? f : best),
    null,
  );
}
