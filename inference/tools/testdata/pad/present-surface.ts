/**
 * Renders a flat (or gently bent) surface, a print or a screen, held in front of a camera: the
 * surface is placed in 3D (turned by yaw, pitch and roll, bent around its vertical axis), projected
 * through a pinhole camera over a background, shaded by its angle to the light, with a specular
 * glare and, for prints, the fingers of the hand that holds it. A flat surface seen this way is an
 * exact homography of itself, which is what a print or screen held up to a camera is.
 */
import { between } from '../../../../scripts/test-support/seeded-random';
import { blank, sample, spot, type Raw } from './raw-image';

export interface Pose {
  yaw: number;
  pitch: number;
  roll: number;
}

export interface Scene {
  width: number;
  height: number;
  /** Fraction of the frame height the surface spans when facing the camera. */
  fill: number;
  /** Centre of the surface in the frame, as fractions of width and height. */
  centre: [number, number];
  /** Focal length over frame height: about 1.0 for a phone's front camera, 1.4 for a webcam. */
  focal: number;
  /** Bend radius over the surface width; 0 = flat. */
  bend: number;
  background: [number, number, number];
  glare: { x: number; y: number; strength: number; size: number };
  /** Skin tone of the holding hand, or null when nothing holds it (a screen on a stand). */
  hand: [number, number, number] | null;
  /** Light direction's x and y component (z toward the surface). */
  light: [number, number];
}

export function drawScene(
  random: () => number,
  width: number,
  height: number,
  options: { bent: boolean; hand: boolean },
): Scene {
  const skins: Array<[number, number, number]> = [
    [224, 172, 140],
    [198, 140, 104],
    [141, 92, 64],
    [236, 196, 170],
  ];
  return {
    width,
    height,
    fill: between(random, 0.72, 0.92),
    centre: [between(random, 0.45, 0.55), between(random, 0.47, 0.55)],
    focal: between(random, 0.95, 1.5),
    bend: options.bent ? between(random, 0.9, 2.2) : 0,
    background: [between(random, 60, 200), between(random, 60, 190), between(random, 60, 180)],
    glare: {
      x: between(random, 0.15, 0.85),
      y: between(random, 0.1, 0.6),
      strength: between(random, 0.15, 0.6),
      size: between(random, 0.08, 0.2),
    },
    hand: options.hand ? skins[Math.floor(random() * skins.length)] : null,
    light: [between(random, -0.5, 0.5), between(random, -0.6, 0.1)],
  };
}

/**
 * The camera's view of `surface` in `pose`. `finish` adds the surface's own look at each point
 * (paper sheen, screen reflection) given its output position and the cosine to the light.
 */
export function presentSurface(surface: Raw, scene: Scene, pose: Pose, random: () => number): Raw {
  const { width, height } = scene;
  const f = scene.focal * height;
  const distance = (f * surface.height) / (scene.fill * height);
  const rotate = rotation(pose);
  const where = scene.bend
    ? bentSurfaceMap(surface, scene, f, distance, rotate)
    : flatSurfaceMap(surface, scene, f, distance, rotate);
  const noise = () => (random() - 0.5) * 10;
  const out = blank(width, height, (x, y, c) => scene.background[c] * (0.8 + 0.3 * (y / height)) + noise());
  const glare = {
    cx: scene.glare.x * width,
    cy: scene.glare.y * height,
    rx: scene.glare.size * width * 1.6,
    ry: scene.glare.size * height,
    angle: 0.5,
  };
  for (let p = 0; p < width * height; p++) {
    const lit = where[p * 3 + 2];
    if (!lit) continue;
    const u = where[p * 3];
    const v = where[p * 3 + 1];
    const g = scene.glare.strength * spot(p % width, Math.floor(p / width), glare);
    for (let c = 0; c < 3; c++) {
      const value = sample(surface, Math.min(u, surface.width - 1), Math.min(v, surface.height - 1), c) ?? 0;
      out.data[p * 3 + c] = value * lit * (1 - g) + 255 * g;
    }
  }
  if (scene.hand) drawFingers(out, scene, pose, f, distance, surface, rotate);
  return out;
}

type Rotate = (p: number[]) => number[];

/** For each output pixel, the surface point its ray meets (u, v) and its lighting (0 where it misses): ray-plane intersection. */
function flatSurfaceMap(surface: Raw, scene: Scene, f: number, distance: number, rotate: Rotate): Float64Array {
  const { width, height } = scene;
  const [r1, r2, n] = [rotate([1, 0, 0]), rotate([0, 1, 0]), rotate([0, 0, 1])];
  const lit = Math.max(0.2, -(n[0] * scene.light[0] + n[1] * scene.light[1]) + n[2] * 0.9);
  const where = new Float64Array(width * height * 3);
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const d = [(px + 0.5 - scene.centre[0] * width) / f, (py + 0.5 - scene.centre[1] * height) / f, 1];
      const t = (n[2] * distance) / (n[0] * d[0] + n[1] * d[1] + n[2] * d[2]);
      if (!(t > 0)) continue;
      const q = [t * d[0], t * d[1], t * d[2] - distance];
      const u = q[0] * r1[0] + q[1] * r1[1] + q[2] * r1[2] + surface.width / 2;
      const v = q[0] * r2[0] + q[1] * r2[1] + q[2] * r2[2] + surface.height / 2;
      if (u < 0 || v < 0 || u > surface.width - 1 || v > surface.height - 1) continue;
      const p = py * width + px;
      where[p * 3] = u;
      where[p * 3 + 1] = v;
      where[p * 3 + 2] = lit;
    }
  }
  return where;
}

/**
 * A sheet bent around its vertical axis has no closed-form inverse: forward-map a grid finer than
 * the output pixels; each output pixel averages the surface points that land in it, nearest first.
 */
function bentSurfaceMap(surface: Raw, scene: Scene, f: number, distance: number, rotate: Rotate): Float64Array {
  const { width, height } = scene;
  const step = Math.max(0.35, Math.min(1.5, (distance / f) * 0.7));
  const acc = new Float64Array(width * height * 4);
  const depth = new Float64Array(width * height).fill(Infinity);
  const radius = scene.bend * surface.width;
  for (let u = 0; u < surface.width; u += step) {
    const x0 = u - surface.width / 2;
    const [bx, bz, nx, nz] = [
      radius * Math.sin(x0 / radius),
      radius * (1 - Math.cos(x0 / radius)),
      -Math.sin(x0 / radius),
      Math.cos(x0 / radius),
    ];
    const [nX, nY, nZ] = rotate([nx, 0, nz]);
    const lit = Math.max(0.2, -(nX * scene.light[0] + nY * scene.light[1]) + nZ * 0.9);
    for (let v = 0; v < surface.height; v += step) {
      const [X, Y, Z] = rotate([bx, v - surface.height / 2, bz]);
      const px = Math.floor(scene.centre[0] * width + (f * X) / (distance + Z));
      const py = Math.floor(scene.centre[1] * height + (f * Y) / (distance + Z));
      if (px < 0 || py < 0 || px >= width || py >= height) continue;
      const p = py * width + px;
      if (Z > depth[p] + 2) continue;
      if (Z < depth[p] - 2) {
        acc.fill(0, p * 4, p * 4 + 4);
        depth[p] = Z;
      }
      acc[p * 4] += u;
      acc[p * 4 + 1] += v;
      acc[p * 4 + 2] += lit;
      acc[p * 4 + 3] += 1;
    }
  }
  const where = new Float64Array(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    const n = acc[p * 4 + 3];
    if (!n) continue;
    where[p * 3] = acc[p * 4] / n;
    where[p * 3 + 1] = acc[p * 4 + 1] / n;
    where[p * 3 + 2] = acc[p * 4 + 2] / n;
  }
  return where;
}

/** Three fingertips and a thumb over the lower corners of the sheet, as a hand holding it. */
function drawFingers(
  out: Raw,
  scene: Scene,
  _pose: Pose,
  f: number,
  distance: number,
  surface: Raw,
  rotate: Rotate,
): void {
  const tips: Array<[number, number]> = [
    [-0.5, 0.38],
    [-0.5, 0.46],
    [0.5, 0.42],
    [0.45, 0.5],
  ];
  for (const [fu, fv] of tips) {
    const [X, Y, Z] = rotate([fu * surface.width, fv * surface.height, 0]);
    const cx = scene.centre[0] * scene.width + (f * X) / (distance + Z);
    const cy = scene.centre[1] * scene.height + (f * Y) / (distance + Z);
    const r = (f * surface.width * 0.07) / distance;
    const tip = { cx, cy, rx: r * 1.8, ry: r * 0.8, angle: 0 };
    for (let y = Math.max(0, Math.floor(cy - r * 3)); y < Math.min(scene.height, cy + r * 3); y++) {
      for (let x = Math.max(0, Math.floor(cx - r * 3)); x < Math.min(scene.width, cx + r * 3); x++) {
        const w = spot(x, y, tip);
        if (w < 0.3) continue;
        const edge = Math.min(1, (w - 0.3) * 4);
        for (let c = 0; c < 3; c++) {
          const i = (y * scene.width + x) * 3 + c;
          out.data[i] = out.data[i] * (1 - edge) + scene.hand![c] * (0.8 + 0.2 * w) * edge;
        }
      }
    }
  }
}

function rotation({ yaw, pitch, roll }: Pose): (p: number[]) => number[] {
  const [a, b, g] = [yaw, pitch, roll].map((d) => (d * Math.PI) / 180);
  return ([x, y, z]) => {
    // Yaw about the vertical axis, then pitch about the horizontal, then roll in the image plane.
    const x1 = x * Math.cos(a) + z * Math.sin(a);
    const z1 = -x * Math.sin(a) + z * Math.cos(a);
    const y2 = y * Math.cos(b) - z1 * Math.sin(b);
    const z2 = y * Math.sin(b) + z1 * Math.cos(b);
    return [x1 * Math.cos(g) - y2 * Math.sin(g), x1 * Math.sin(g) + y2 * Math.cos(g), z2];
  };
}
