/**
 * The photos the face-line set is made from. Every entry is one photo of one person with the
 * detector's face box on it (measured once with the served face detector; the generator only needs
 * it roughly right to cut a head-and-shoulders crop). Genuine pairs are only ever two DIFFERENT
 * photos of one person, never two copies of one photo.
 *
 * Where they come from (all extracted at set-up, never committed):
 * - `pypi`: the face_recognition 1.3.0 source distribution on PyPI (MIT), tests/test_images:
 *   three official White House photographs of Barack Obama taken years apart (2009 address to
 *   Congress, 2010 Blue Room, 2012 portrait sitting) and one of Joe Biden
 *   (scripts/fetch-pypi-face-photos.sh);
 * - `npm`: @vladmandic/face-api 1.7.15 (MIT) demo/sample1-6.jpg, six group photos by the package's
 *   author, 22 faces. Nobody is named, so only what is certain is used: two faces in one photo are
 *   two different people. Across photos the same person may recur (one woman seemingly does, in
 *   samples 1 and 3), so faces from two different group photos are never paired;
 * - `debian`: single photos scripts/fetch-debian-assets.sh extracts (skimage's astronaut,
 *   matplotlib's Grace Hopper, opencv-doc's bearded man). Left out: Messi (a 37-pixel face),
 *   facereg.jpg (65-pixel faces with landmark dots drawn on) and the Yale cells (a tight greyscale
 *   crop): none could be a document photo or a selfie.
 */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FaceLinePhoto {
  /** The person; two photos with one identity make a genuine pair. */
  identity: string;
  /** A name for this photo, unique in the set. */
  photo: string;
  root: 'pypi' | 'npm' | 'debian';
  file: string;
  face: FaceBox;
  /** Which half of the set: the line is placed on `calibration`, reported on `report`. */
  split: 'calibration' | 'report';
  /** The unnamed group photo a face comes from: two such faces are paired only within one photo. */
  crowd?: string;
}

export const photoRoots = {
  pypi: '.state/assets/pypi/face_recognition',
  npm: 'node_modules/@vladmandic/face-api/demo',
  debian: '.state/assets/debian',
} as const;

const faceApi: Array<[number, FaceBox[]]> = [
  [
    1,
    [
      { x: 418, y: 406, width: 194, height: 194 },
      { x: 849, y: 467, width: 175, height: 175 },
      { x: 1491, y: 268, width: 146, height: 146 },
    ],
  ],
  [
    2,
    [
      { x: 349, y: 187, width: 211, height: 211 },
      { x: 867, y: 251, width: 209, height: 209 },
      { x: 1457, y: 197, width: 197, height: 197 },
    ],
  ],
  [
    3,
    [
      { x: 590, y: 384, width: 203, height: 203 },
      { x: 1065, y: 258, width: 248, height: 248 },
      { x: 1467, y: 355, width: 205, height: 205 },
    ],
  ],
  [
    4,
    [
      { x: 235, y: 245, width: 180, height: 180 },
      { x: 677, y: 127, width: 165, height: 165 },
      { x: 974, y: 229, width: 201, height: 201 },
      { x: 1279, y: 203, width: 184, height: 184 },
    ],
  ],
  [
    5,
    [
      { x: 356, y: 941, width: 205, height: 205 },
      { x: 570, y: 456, width: 199, height: 199 },
      { x: 778, y: 160, width: 166, height: 166 },
      { x: 1114, y: 260, width: 180, height: 180 },
      { x: 1418, y: 439, width: 211, height: 211 },
    ],
  ],
  [
    6,
    [
      { x: 244, y: 536, width: 218, height: 218 },
      { x: 654, y: 374, width: 246, height: 246 },
      { x: 1151, y: 353, width: 230, height: 230 },
      { x: 1466, y: 313, width: 247, height: 247 },
    ],
  ],
];

/** Group photos 1-3 place the line, 4-6 report on it, so no person is on both sides. */
const faceApiPhotos: FaceLinePhoto[] = faceApi.flatMap(([sample, faces]) =>
  faces.map((face, i) => ({
    identity: `face-api-s${sample}-p${i + 1}`,
    photo: `face-api-s${sample}-p${i + 1}`,
    root: 'npm' as const,
    file: `sample${sample}.jpg`,
    face,
    crowd: `face-api-sample${sample}`,
    split: sample <= 3 ? ('calibration' as const) : ('report' as const),
  })),
);

export const faceLinePhotos: FaceLinePhoto[] = [
  {
    identity: 'obama',
    photo: 'obama-2012-portrait',
    root: 'pypi',
    file: 'obama.jpg',
    face: { x: 361, y: 147, width: 264, height: 264 },
    split: 'report',
  },
  {
    identity: 'obama',
    photo: 'obama-2009-congress',
    root: 'pypi',
    file: 'obama2.jpg',
    face: { x: 183, y: 311, width: 313, height: 313 },
    split: 'report',
  },
  {
    identity: 'obama',
    photo: 'obama-2010-blue-room',
    root: 'pypi',
    file: 'obama3.jpg',
    face: { x: 635, y: 345, width: 273, height: 273 },
    split: 'report',
  },
  {
    identity: 'biden',
    photo: 'biden-2010-blue-room',
    root: 'pypi',
    file: 'biden.jpg',
    face: { x: 422, y: 269, width: 288, height: 288 },
    split: 'report',
  },
  ...faceApiPhotos,
  {
    identity: 'astronaut',
    photo: 'astronaut',
    root: 'debian',
    file: 'faces/astronaut.png',
    face: { x: 172, y: 74, width: 105, height: 105 },
    split: 'calibration',
  },
  {
    identity: 'grace-hopper',
    photo: 'grace-hopper',
    root: 'debian',
    file: 'faces/grace_hopper.jpg',
    face: { x: 167, y: 138, width: 199, height: 199 },
    split: 'calibration',
  },
  {
    identity: 'bearded-man',
    photo: 'bearded-man',
    root: 'debian',
    file: 'opencv/face_swapped.jpg',
    face: { x: 107, y: 85, width: 116, height: 116 },
    split: 'report',
  },
];
