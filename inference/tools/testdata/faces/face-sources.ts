/**
 * The real photos the face test sets are made from, all extracted from Debian packages by
 * scripts/fetch-debian-assets.sh (never committed: opencv-doc's images have no clear licence).
 * Each entry is one identity. No package has two independent photos of one person, so genuine
 * pairs are augmented copies of one photo; the only exceptions are the Yale cells (one face under
 * four illuminations) and Grace Hopper's second crop of the same photo, both labelled as such.
 */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface FaceSource {
  /** Stable identity label used in file names and pairs. */
  identity: string;
  /** Path under .state/assets/debian. */
  file: string;
  /** Where the face is; omitted when the whole image is the portrait. */
  region?: Region;
  /** Up-scaling applied after the region is cut, for faces too small for the detector's grid. */
  upscale?: number;
  /** Grey padding around tight crops so the detector sees the whole head. */
  pad?: number;
}

export const faceSources: FaceSource[] = [
  { identity: 'astronaut', file: 'faces/astronaut.png' },
  { identity: 'grace-hopper', file: 'faces/grace_hopper.jpg' },
  { identity: 'bearded-man', file: 'opencv/face_swapped.jpg' },
  {
    identity: 'mona-lisa',
    file: 'opencv/julia_facedetect_sample.jpg',
    region: { left: 90, top: 60, width: 340, height: 380 },
  },
  {
    identity: 'messi',
    file: 'faces/messi5.jpg',
    region: { left: 170, top: 35, width: 120, height: 120 },
    upscale: 3,
  },
  // facereg.jpg is a 2x2 grid of four people with landmark dots drawn over them by OpenCV's demo.
  {
    identity: 'facereg-1',
    file: 'opencv/facereg.jpg',
    region: { left: 0, top: 0, width: 100, height: 100 },
    upscale: 3,
  },
  {
    identity: 'facereg-2',
    file: 'opencv/facereg.jpg',
    region: { left: 100, top: 0, width: 100, height: 100 },
    upscale: 3,
  },
  {
    identity: 'facereg-3',
    file: 'opencv/facereg.jpg',
    region: { left: 0, top: 100, width: 100, height: 100 },
    upscale: 3,
  },
  {
    identity: 'facereg-4',
    file: 'opencv/facereg.jpg',
    region: { left: 100, top: 100, width: 100, height: 100 },
    upscale: 3,
  },
  {
    identity: 'yale-subject',
    file: 'opencv/lbp_yale.jpg',
    region: { left: 0, top: 0, width: 166, height: 190 },
    upscale: 2,
    pad: 0.35,
  },
];

/** The same Yale face under three other illuminations (top row of lbp_yale.jpg). */
export const yaleRelitCells: Region[] = [1, 2, 3].map((i) => ({
  left: 166 * i,
  top: 0,
  width: 166,
  height: 190,
}));

/** Grace Hopper's other crop of the same photo, shipped by the facedetect package. */
export const graceHopperOtherCrop = 'faces/grace_hopper_512x512.jpg';

/**
 * Frontal faces used to synthesise liveness sequences. Eye centres and face extent were measured
 * by hand on the source image (pixels); the warps only need them roughly right.
 */
export interface LivenessSource {
  identity: string;
  file: string;
  faceCentreX: number;
  faceHalfWidth: number;
  eyes: Array<{ x: number; y: number; halfWidth: number; halfHeight: number }>;
}

export const livenessSources: LivenessSource[] = [
  {
    identity: 'bearded-man',
    file: 'opencv/face_swapped.jpg',
    faceCentreX: 152,
    faceHalfWidth: 55,
    eyes: [
      { x: 125, y: 121, halfWidth: 14, halfHeight: 6 },
      { x: 180, y: 122, halfWidth: 14, halfHeight: 6 },
    ],
  },
  {
    identity: 'astronaut',
    file: 'faces/astronaut.png',
    faceCentreX: 225,
    faceHalfWidth: 42,
    eyes: [
      { x: 201, y: 101, halfWidth: 10, halfHeight: 5 },
      { x: 246, y: 103, halfWidth: 10, halfHeight: 5 },
    ],
  },
  {
    identity: 'grace-hopper',
    file: 'faces/grace_hopper_512x512.jpg',
    faceCentreX: 265,
    faceHalfWidth: 105,
    eyes: [
      { x: 223, y: 167, halfWidth: 18, halfHeight: 8 },
      { x: 302, y: 166, halfWidth: 18, halfHeight: 8 },
    ],
  },
];
