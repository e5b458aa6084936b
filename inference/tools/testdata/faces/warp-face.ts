/**
 * Pixel remaps that fake head movement on a single real photo, for synthetic liveness sequences.
 * A head turn is modelled as the face lying on a cylinder that rotates: the nose slides toward one
 * cheek while the far side compresses, which is what moves a landmark model's yaw estimate. A blink
 * paints eyelid skin (taken from just above each eye) over the eye with a dark lash line.
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3;
}

export interface CylinderTurn {
  axis: 'vertical' | 'horizontal';
  /** Image coordinate of the rotation axis (x for vertical, y for horizontal). */
  centre: number;
  radius: number;
  degrees: number;
}

export function turnOnCylinder(image: RawImage, turn: CylinderTurn): RawImage {
  const out = Buffer.alloc(image.data.length);
  const theta = (turn.degrees * Math.PI) / 180;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const along = turn.axis === 'vertical' ? x : y;
      const source = sourceCoordinate(along, turn.centre, turn.radius, theta);
      const [sx, sy] = turn.axis === 'vertical' ? [source, y] : [x, source];
      writeBilinear(image, out, (y * image.width + x) * 3, sx, sy);
    }
  }
  return { ...image, data: out };
}

function sourceCoordinate(at: number, centre: number, radius: number, theta: number): number {
  const u = (at - centre) / radius;
  if (Math.abs(u) >= 1) return at;
  // The turn fades out toward the cylinder's edge so the warp meets the untouched background
  // without a seam.
  const edge = Math.max(0, (Math.abs(u) - 0.75) / 0.25);
  const fade = Math.cos((edge * Math.PI) / 2) ** 2;
  const angle = Math.max(-Math.PI / 2, Math.min(Math.PI / 2, Math.asin(u) - theta * fade));
  return centre + radius * Math.sin(angle);
}

export interface EyeRegion {
  x: number;
  y: number;
  halfWidth: number;
  halfHeight: number;
}

export function closeEyes(image: RawImage, eyes: EyeRegion[]): RawImage {
  const out = Buffer.from(image.data);
  for (const eye of eyes) {
    const rx = eye.halfWidth * 1.35;
    const ry = eye.halfHeight * 1.6;
    const lidOffset = eye.halfHeight * 2.4;
    for (let y = Math.floor(eye.y - ry); y <= Math.ceil(eye.y + ry); y++) {
      for (let x = Math.floor(eye.x - rx); x <= Math.ceil(eye.x + rx); x++) {
        if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
        const d = ((x - eye.x) / rx) ** 2 + ((y - eye.y) / ry) ** 2;
        if (d >= 1) continue;
        const weight = Math.min(1, (1 - d) * 2.5); // soft edge so no hard seam is left
        // A closed lid shows as a lash line that sags in the middle.
        const across = (x - eye.x) / (eye.halfWidth * 1.1);
        const lashY = eye.y + eye.halfHeight * (0.1 + 0.45 * (1 - across * across));
        const lash = Math.abs(across) < 1 && Math.abs(y - lashY) < Math.max(1, eye.halfHeight * 0.22);
        const skinY = Math.min(image.height - 1, Math.round(y + lidOffset));
        for (let c = 0; c < 3; c++) {
          const skin = image.data[(skinY * image.width + x) * 3 + c];
          const target = lash ? skin * 0.3 : skin;
          const i = (y * image.width + x) * 3 + c;
          out[i] = Math.round(out[i] * (1 - weight) + target * weight);
        }
      }
    }
  }
  return { ...image, data: out };
}

function writeBilinear(image: RawImage, out: Buffer, at: number, sx: number, sy: number): void {
  const x0 = Math.max(0, Math.min(image.width - 1, Math.floor(sx)));
  const y0 = Math.max(0, Math.min(image.height - 1, Math.floor(sy)));
  const x1 = Math.min(image.width - 1, x0 + 1);
  const y1 = Math.min(image.height - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, sx - x0));
  const fy = Math.max(0, Math.min(1, sy - y0));
  for (let c = 0; c < 3; c++) {
    const p = (px: number, py: number) => image.data[(py * image.width + px) * 3 + c];
    const top = p(x0, y0) * (1 - fx) + p(x1, y0) * fx;
    const bottom = p(x0, y1) * (1 - fx) + p(x1, y1) * fx;
    out[at + c] = Math.round(top * (1 - fy) + bottom * fy);
  }
}
