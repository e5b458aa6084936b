import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { livenessSources, type LivenessSource } from '../../inference/tools/testdata/faces/face-sources';
import { type RawImage } from '../../inference/tools/testdata/faces/warp-face';
import { seededRandom } from './seeded-random';

const ASSETS = path.resolve(__dirname, '../../.state/assets/debian');

export interface RevealedStep {
  step_id: string;
  index: number;
  count: number;
  kind: 'HOLD_POSE' | 'OPEN_MOUTH';
  target: { yaw: number; pitch: number };
  tolerance_deg: number;
  hold_ms: number;
  deadline_ms: number;
}

/** What the performer needs of the capture API (the tests' CaptureClient is one). */
export interface PacedClient {
  revealStep(): Promise<{ status: number; body: Record<string, unknown> }>;
  pacedFrames(stepId: string, frames: Buffer[], timestamps: number[]): Promise<{ status: number; body: unknown }>;
  completeStep(stepId: string): Promise<{ status: number; body: { next: string } & Record<string, unknown> }>;
}

export interface HeadPose {
  yaw: number;
  pitch: number;
  /** 0 closed to 1 wide open. */
  mouth: number;
  /** Eyelids closed (a blink). */
  eyesClosed?: boolean;
}

/** How one trial's head looks: whose photo, and a small colour cast and sensor noise so its bytes are its own. */
export interface HeadLook {
  /** A liveness source's identity (face-sources.ts); grace-hopper unless told. */
  subject?: string;
  /** Per-channel gains, e.g. [1.02, 0.99, 0.97]. */
  tint?: [number, number, number];
  /** Peak noise added to each pixel (0 to 255), seeded by `seed`. */
  noise?: number;
  seed?: number;
}

/** The square the face is cropped to, in the source's pixels, and the render's scale from it. */
interface Framing {
  left: number;
  top: number;
  side: number;
  scale: number;
}

/**
 * A synthetic head for the paced challenge: one real photo (a Debian package's portrait) warped on
 * a cylinder to a yaw and pitch, as the project's other synthetic liveness sequences are, and, for
 * the mouth, a jaw drop (the lower face stretched down) with a dark gap between the lips; the
 * eyelids can close (a blink: the eye painted over with the skin just above it and a lash line).
 * It is a rigid mask by construction except for those warps, and the tests say so: with
 * `mouthWarp` off it is the rigid head the non-rigid check must refuse. The pitch warp is scaled up
 * because the service's pitch estimate reads a fraction of the warp (see make-liveness-sequences.ts).
 */
export class SyntheticHead {
  private readonly cache = new Map<string, Promise<Buffer>>();
  private readonly source: LivenessSource;
  private image: Promise<{ raw: RawImage; framing: Framing }> | null = null;

  constructor(
    private readonly mouthWarp = true,
    private readonly look: HeadLook = {},
  ) {
    const subject = look.subject ?? 'grace-hopper';
    const source = livenessSources.find((s) => s.identity === subject);
    if (!source) throw new Error(`no liveness source "${subject}" (face-sources.ts)`);
    this.source = source;
  }

  get subject(): string {
    return this.source.identity;
  }

  /** Rendered at 256 px: warps are per-pixel JavaScript, and frames must keep up with the clock. */
  private readonly width = 256;

  private base(): Promise<{ raw: RawImage; framing: Framing }> {
    this.image ??= (async () => {
      const file = readFileSync(path.join(ASSETS, this.source.file));
      const { width = 0, height = 0 } = await sharp(file).metadata();
      const eyeY = this.source.eyes.reduce((s, e) => s + e.y, 0) / this.source.eyes.length;
      // A square about five face half-widths across, centred a little below the eyes (as a selfie frames it).
      const side = Math.min(width, height, Math.round(this.source.faceHalfWidth * 5));
      const left = Math.max(0, Math.min(width - side, Math.round(this.source.faceCentreX - side / 2)));
      const top = Math.max(0, Math.min(height - side, Math.round(eyeY + this.source.faceHalfWidth * 0.4 - side / 2)));
      const { data, info } = await sharp(file)
        .extract({ left, top, width: side, height: side })
        .resize({ width: this.width })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return {
        raw: { data, width: info.width, height: info.height, channels: 3 as const },
        framing: { left, top, side, scale: this.width / side },
      };
    })();
    return this.image;
  }

  /** A JPEG of the head at this pose (yaw rounded to 2°, pitch to 3°, mouth to quarters, and cached). */
  frame(pose: HeadPose): Promise<Buffer> {
    const rounded = {
      yaw: Math.round(pose.yaw / 2) * 2,
      pitch: Math.round(pose.pitch / 3) * 3,
      mouth: this.mouthWarp ? Math.round(pose.mouth * 4) / 4 : 0,
      eyesClosed: pose.eyesClosed === true,
    };
    const key = `${rounded.yaw}:${rounded.pitch}:${rounded.mouth}:${rounded.eyesClosed}`;
    let jpeg = this.cache.get(key);
    if (!jpeg) {
      jpeg = this.render(rounded, key);
      this.cache.set(key, jpeg);
    }
    return jpeg;
  }

  private async render(pose: HeadPose, key: string): Promise<Buffer> {
    const { raw, framing } = await this.base();
    const at = (x: number, y: number) => ({
      x: (x - framing.left) * framing.scale,
      y: (y - framing.top) * framing.scale,
    });
    const eyes = this.source.eyes.map((e) => ({
      ...at(e.x, e.y),
      halfWidth: e.halfWidth * framing.scale,
      halfHeight: e.halfHeight * framing.scale,
    }));
    const eyeY = eyes.reduce((s, e) => s + e.y, 0) / eyes.length;
    const centreX = at(this.source.faceCentreX, 0).x;
    const halfWidth = this.source.faceHalfWidth * framing.scale;
    let posed = raw;
    if (pose.eyesClosed) posed = closeEyes(posed, eyes);
    if (pose.mouth > 0) posed = openMouth(posed, centreX, eyeY, halfWidth, pose.mouth);
    if (pose.yaw) posed = turn(posed, 'vertical', centreX, halfWidth, pose.yaw);
    if (pose.pitch) posed = turn(posed, 'horizontal', eyeY + halfWidth * 0.5, halfWidth, -2.5 * pose.pitch);
    posed = this.cast(posed, key);
    return sharp(posed.data, { raw: { width: posed.width, height: posed.height, channels: 3 } })
      .jpeg({ quality: 88 })
      .toBuffer();
  }

  /** The trial's colour cast and noise (seeded by the trial and the pose, so a pose renders the same twice). */
  private cast(image: RawImage, key: string): RawImage {
    const { tint, noise = 0, seed = 0 } = this.look;
    if (!tint && !noise) return image;
    let poseSeed = seed;
    for (let i = 0; i < key.length; i++) poseSeed = Math.imul(poseSeed ^ key.charCodeAt(i), 16777619);
    const random = seededRandom(poseSeed);
    const gains = tint ?? [1, 1, 1];
    const out = Buffer.alloc(image.data.length);
    for (let i = 0; i < image.data.length; i++) {
      const v = image.data[i] * gains[i % 3] + (noise ? (random() * 2 - 1) * noise : 0);
      out[i] = Math.max(0, Math.min(255, Math.round(v)));
    }
    return { ...image, data: out };
  }
}

/**
 * warp-face.ts's cylinder turn, made separable so it keeps up with a live clock: the source
 * coordinate depends only on the column (vertical axis) or the row (horizontal), so it is computed
 * once per line, not per pixel (there: 340 ms a 256 px frame on this loaded machine).
 */
function turn(
  image: RawImage,
  axis: 'vertical' | 'horizontal',
  centre: number,
  radius: number,
  degrees: number,
): RawImage {
  const theta = (degrees * Math.PI) / 180;
  const length = axis === 'vertical' ? image.width : image.height;
  const map = Float64Array.from({ length }, (_, at) => {
    const u = (at - centre) / radius;
    if (Math.abs(u) >= 1) return at;
    const edge = Math.max(0, (Math.abs(u) - 0.75) / 0.25);
    const fade = Math.cos((edge * Math.PI) / 2) ** 2;
    const angle = Math.max(-Math.PI / 2, Math.min(Math.PI / 2, Math.asin(u) - theta * fade));
    return centre + radius * Math.sin(angle);
  });
  const out = Buffer.alloc(image.data.length);
  const { width, height, data } = image;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const src = axis === 'vertical' ? map[x] : map[y];
      const lo = Math.max(0, Math.min(length - 1, Math.floor(src)));
      const hi = Math.min(length - 1, lo + 1);
      const f = Math.max(0, Math.min(1, src - lo));
      const a = axis === 'vertical' ? (y * width + lo) * 3 : (lo * width + x) * 3;
      const b = axis === 'vertical' ? (y * width + hi) * 3 : (hi * width + x) * 3;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) out[o + c] = data[a + c] * (1 - f) + data[b + c] * f;
    }
  }
  return { ...image, data: out };
}

/** Drops the jaw: pixels below the mouth line move down (fading out at the chin and cheeks), and the gap shows dark. */
function openMouth(image: RawImage, centreX: number, eyeY: number, halfWidth: number, amount: number): RawImage {
  const out = Buffer.from(image.data);
  const mouthY = eyeY + halfWidth * 0.98;
  const chinY = eyeY + halfWidth * 1.75;
  const drop = halfWidth * 0.28 * amount;
  const mouthHalf = halfWidth * 0.3;
  for (let y = Math.floor(mouthY); y < Math.min(image.height, Math.ceil(chinY + drop + 4)); y++) {
    for (let x = Math.floor(centreX - halfWidth); x <= Math.ceil(centreX + halfWidth); x++) {
      if (x < 0 || x >= image.width) continue;
      const across = Math.abs(x - centreX) / halfWidth;
      const side = Math.max(0, 1 - across ** 2);
      const shift = drop * side;
      const sy = y - shift;
      const inGap = y - mouthY < shift && Math.abs(x - centreX) < mouthHalf * Math.sqrt(side);
      const o = (y * image.width + x) * 3;
      if (inGap) {
        out[o] = 40;
        out[o + 1] = 18;
        out[o + 2] = 22;
      } else if (sy >= mouthY) {
        const si = (Math.round(sy) * image.width + x) * 3;
        out[o] = image.data[si];
        out[o + 1] = image.data[si + 1];
        out[o + 2] = image.data[si + 2];
      }
    }
  }
  return { ...image, data: out };
}

/**
 * Closes the eyelids: each eye's ellipse takes the skin just above it (the lid), darkened a
 * little, with a dark lash line along the middle, as a closed eye looks from the front.
 */
function closeEyes(
  image: RawImage,
  eyes: Array<{ x: number; y: number; halfWidth: number; halfHeight: number }>,
): RawImage {
  const out = Buffer.from(image.data);
  for (const eye of eyes) {
    const rx = eye.halfWidth * 1.15;
    const ry = eye.halfHeight * 1.4;
    const lift = Math.round(ry * 2.2);
    for (let y = Math.floor(eye.y - ry); y <= Math.ceil(eye.y + ry); y++) {
      for (let x = Math.floor(eye.x - rx); x <= Math.ceil(eye.x + rx); x++) {
        if (x < 0 || x >= image.width || y < 0 || y >= image.height) continue;
        const d = ((x - eye.x) / rx) ** 2 + ((y - eye.y) / ry) ** 2;
        if (d > 1) continue;
        const o = (y * image.width + x) * 3;
        const lash = Math.abs(y - (eye.y + ry * 0.25)) < 1 && Math.abs(x - eye.x) < rx * 0.85;
        const si = (Math.max(0, y - lift) * image.width + x) * 3;
        // Feathered at the rim so the lid has no hard edge.
        const w = Math.min(1, (1 - d) * 4);
        for (let c = 0; c < 3; c++) {
          const lid = lash ? 35 : image.data[si + c] * 0.9;
          out[o + c] = Math.round(image.data[o + c] * (1 - w) + lid * w);
        }
      }
    }
  }
  return { ...image, data: out };
}

export interface PerformOptions {
  /** Ms before the head starts toward a new target (a person's reaction time). */
  reactionMs?: number;
  /** Degrees a second the head turns. */
  speed?: number;
  /** Ms between frames. */
  frameMs?: number;
  framesPerChunk?: number;
  /** Where the mouth opens to for OPEN_MOUTH (0 to 1); 0.5 unless told. */
  mouthOpen?: number;
  /** The pose shown for a step, instead of following its target (an attack). */
  poseAt?: (step: RevealedStep, t: number, from: HeadPose) => HeadPose;
  /** Ms after the reveal at which the step's last frame is taken, instead of the live head's own. */
  durationMs?: (step: RevealedStep, from: HeadPose) => number;
  /** Eyes closed at this wall-clock instant (Date.now()): blinks run on their own clock, across steps. */
  eyesClosedAt?: (now: number) => boolean;
  /** Ms added to each frame's timestamp (an attacker stamping frames as early as the server allows). */
  stampLeadMs?: number;
  /** The bytes to send for the step's n-th frame, instead of rendering the head (a replay). */
  frameAt?: (step: RevealedStep, n: number) => Buffer;
}

/** Blinks: eyes closed for `closedMs` every 2 to 4 s (seeded), from the first call on. */
export function blinking(seed: number, closedMs = 150): (now: number) => boolean {
  const random = seededRandom(seed);
  let start: number | null = null;
  const blinks: number[] = [];
  return (now) => {
    start ??= now;
    while (!blinks.length || blinks[blinks.length - 1] < now - start + 4_000)
      blinks.push((blinks.length ? blinks[blinks.length - 1] : 0) + 2_000 + random() * 2_000);
    const t = now - start;
    return blinks.some((b) => t >= b && t < b + closedMs);
  };
}

/**
 * Performs one revealed step live: frames are rendered as time passes on the client's clock from
 * the reveal's arrival, sent in chunks as they are made, and the step is completed once the hold
 * is done. Answers the pose the head ends at, and the bytes it sent.
 */
export async function performStep(
  client: PacedClient,
  head: SyntheticHead,
  step: RevealedStep,
  from: HeadPose,
  options: PerformOptions = {},
): Promise<{ end: HeadPose; chunks: number[]; frames: Buffer[] }> {
  const { reactionMs = 250, speed = 90, frameMs = 110, framesPerChunk = 3, mouthOpen = 0.5, stampLeadMs = 0 } = options;
  const revealedAt = Date.now();
  // Half the warp's jaw drop by default: FaceMesh reads this crude warp's lip gap best there (mouth
  // openness 0.18 facing the camera, against 0.15 at the full drop, where it starts to lose the inner lips).
  const target: HeadPose =
    step.kind === 'OPEN_MOUTH' ? { yaw: 0, pitch: 0, mouth: mouthOpen } : { ...step.target, mouth: 0 };
  const distance = Math.hypot(target.yaw - from.yaw, target.pitch - from.pitch);
  const travelMs = (distance / speed) * 1000;
  const doneAt = options.durationMs ? options.durationMs(step, from) : reactionMs + travelMs + step.hold_ms + 600;
  const poseAt = (t: number): HeadPose => {
    if (options.poseAt) return options.poseAt(step, t, from);
    const k = Math.min(1, Math.max(0, (t - reactionMs) / Math.max(1, travelMs)));
    const ease = k * k * (3 - 2 * k);
    return {
      yaw: from.yaw + (target.yaw - from.yaw) * ease,
      pitch: from.pitch + (target.pitch - from.pitch) * ease,
      mouth: from.mouth + (target.mouth - from.mouth) * ease,
    };
  };
  const statuses: number[] = [];
  const sent: Buffer[] = [];
  let batch: { frame: Buffer; t: number }[] = [];
  let last = poseAt(0);
  let previousT = -1;
  // A camera behind schedule drops frames rather than bursting: the next frame is due a frame
  // period after the last one taken, and two frames never share a millisecond.
  for (let next = 0; ; next = Math.max(next + frameMs, previousT + frameMs / 2)) {
    const wait = Math.max(revealedAt + next - Date.now(), previousT + 1 - (Date.now() - revealedAt));
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t = Date.now() - revealedAt;
    previousT = t;
    last = poseAt(t);
    if (options.eyesClosedAt?.(Date.now())) last = { ...last, eyesClosed: true };
    const frame = options.frameAt ? options.frameAt(step, sent.length) : await head.frame(last);
    sent.push(frame);
    batch.push({ frame, t: t + stampLeadMs });
    const finished = t >= doneAt;
    if (batch.length >= framesPerChunk || finished) {
      const answer = await client.pacedFrames(
        step.step_id,
        batch.map((b) => b.frame),
        batch.map((b) => b.t),
      );
      statuses.push(answer.status);
      if (process.env.PACED_DEBUG && answer.status !== 200) console.log(JSON.stringify(answer.body));
      batch = [];
    }
    if (finished) break;
  }
  // The mouth closes during the next step's move, as a person's does, rather than between two frames.
  return { end: { ...last, eyesClosed: false }, chunks: statuses, frames: sent };
}

export interface PerformedChallenge {
  steps: RevealedStep[];
  next: string;
  chunkStatuses: number[];
  /** The bytes sent, step by step (for a replay into another session). */
  framesByStep: Buffer[][];
  /** Ms from the first reveal to the answer that ended the challenge (client clock). */
  elapsedMs: number;
}

/** Runs the whole paced challenge: reveal, perform, complete, until the server says selfie (or something else). */
export async function performChallenge(
  client: PacedClient,
  head: SyntheticHead,
  options: PerformOptions = {},
): Promise<PerformedChallenge> {
  let from: HeadPose = { yaw: 0, pitch: 0, mouth: 0 };
  const steps: RevealedStep[] = [];
  const chunkStatuses: number[] = [];
  const framesByStep: Buffer[][] = [];
  const began = Date.now();
  for (;;) {
    const started = Date.now();
    const revealed = await client.revealStep();
    if (revealed.status !== 201)
      throw new Error(`reveal answered ${revealed.status}: ${JSON.stringify(revealed.body)}`);
    const step = revealed.body as unknown as RevealedStep;
    steps.push(step);
    const { end, chunks, frames } = await performStep(client, head, step, from, options);
    chunkStatuses.push(...chunks);
    framesByStep.push(frames);
    from = end;
    const done = await client.completeStep(step.step_id);
    if (done.status !== 200) throw new Error(`complete answered ${done.status}: ${JSON.stringify(done.body)}`);
    if (process.env.PACED_DEBUG) console.log(JSON.stringify({ step, done: done.body, ms: Date.now() - started }));
    if (done.body.next !== 'step')
      return { steps, next: String(done.body.next), chunkStatuses, framesByStep, elapsedMs: Date.now() - began };
  }
}
