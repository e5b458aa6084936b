/** A point in source-image pixels. */
export type Point = [number, number];

export interface DetectedFace {
  /** Tight face box from the detector, source-image pixels. */
  box: { x: number; y: number; width: number; height: number };
  score: number;
  /** BlazeFace's six keypoints: subject's right eye, left eye, nose, mouth, right ear, left ear. */
  keypoints: Point[];
}

export interface FaceLandmarks {
  /** 468 FaceMesh points in source-image pixels (z in the crop's pixel scale, relative depth). */
  mesh: Array<[number, number, number]>;
  /** FaceMesh's own face-presence confidence for the crop. */
  score: number;
}
