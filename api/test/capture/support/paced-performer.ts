import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { livenessSources } from '../../../../inference/tools/testdata/faces/face-sources';
import { type RawImage } from '../../../../inference/tools/testdata/faces/warp-face';
import { CaptureClient } from './capture-client';

const ASSETS = path.resolve(__dirname, '../../../../.state/assets/debian');

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

export interface HeadPose {
  yaw: number;
  pitch: number;
  /** 0 closed to 1 wide open. */
  mouth: number;
}

/**
 * A synthetic head for the paced challenge: one real photo (Debian's Grace Hopper) warped on a
 * cylinder to a yaw and pitch, as the project's other synthetic liveness sequences are, and, for
 * the mouth, a jaw drop (the lower face stretched down) with a dark gap between the lips. It is a
 * rigid mask by construction except for that warp, and the tests say so: with `mouthWarp` off it
 * is the rigid head the non-rigid check must refuse. The pitch warp is scaled up because the
 * service's pitch estimate reads a fraction of the warp (see make-liveness-sequences.ts).
 */
export class SyntheticHead {
  private readonly cache = new Map<string, Promise<Buffer>>();
  private readonly source = livenessSources.find((s) => s.identity === 'grace-hopper')!;
  private image: Promise<RawImage> | null = null;

  constructor(private readonly mouthWarp = true) {}

  /** Rendered at half size: warps are per-pixel JavaScript, and frames must keep up with the clock. */
  private readonly scale = 0.5;

  private base(): Promise<RawImage> {
    this.image ??= sharp(readFileSync(path.join(ASSETS, this.source.file)))
      .resize({ width: 256 })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => ({ data, width: info.width, height: info.height, channels: 3 as const }));
    return this.image;
  }

  /** A JPEG of the head at this pose (yaw rounded to 2°, pitch to 3°, mouth to quarters, and cached). */
  frame(pose: HeadPose): Promise<Buffer> {
    const rounded = {
      yaw: Math.round(pose.yaw / 2) * 2,
      pitch: Math.round(pose.pitch / 3) * 3,
      mouth: this.mouthWarp ? Math.round(pose.mouth * 4) / 4 : 0,
    };
    const key = `${rounded.yaw}:${rounded.pitch}:${rounded.mouth}`;
    let jpeg = this.cache.get(key);
    if (!jpeg) {
      jpeg = this.render(rounded);
      this.cache.set(key, jpeg);
    }
    return jpeg;
  }

  private async render(pose: HeadPose): Promise<Buffer> {
    const source = this.source;
    const eyeY = (source.eyes.reduce((s, e) => s + e.y, 0) / source.eyes.length) * this.scale;
    const centreX = source.faceCentreX * this.scale;
    const halfWidth = source.faceHalfWidth * this.scale;
    let posed = await this.base();
    if (pose.mouth > 0) posed = openMouth(posed, centreX, eyeY, halfWidth, pose.mouth);
    if (pose.yaw) posed = turn(posed, 'vertical', centreX, halfWidth, pose.yaw);
    if (pose.pitch) posed = turn(posed, 'horizontal', eyeY + halfWidth * 0.5, halfWidth, -2.5 * pose.pitch);
    return sharp(posed.data, { raw: { width: posed.width, height: posed.height, channels: 3 } })
      .jpeg({ quality: 88 })
      .toBuffer();
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

export interface PerformOptions {
  /** Ms before the head starts toward a new target (a person's reaction time). */
  reactionMs?: number;
  /** Degrees a second the head turns. */
  speed?: number;
  /** Ms between frames. */
  frameMs?: number;
  framesPerChunk?: number;
  /** The pose shown for a step, instead of following its target (an attack). */
  poseAt?: (step: RevealedStep, t: number, from: HeadPose) => HeadPose;
}

/**
 * Performs one revealed step live: frames are rendered as time passes on the client's clock from
 * the reveal's arrival, sent in chunks as they are made, and the step is completed once the hold
 * is done. Answers the pose the head ends at.
 */
export async function performStep(
  client: CaptureClient,
  head: SyntheticHead,
  step: RevealedStep,
  from: HeadPose,
  options: PerformOptions = {},
): Promise<{ end: HeadPose; chunks: number[] }> {
  const { reactionMs = 250, speed = 90, frameMs = 110, framesPerChunk = 3 } = options;
  const revealedAt = Date.now();
  // Half the warp's jaw drop: FaceMesh reads this crude warp's lip gap best there (mouth openness
  // 0.18 facing the camera, against 0.15 at the full drop, where it starts to lose the inner lips).
  const target: HeadPose = step.kind === 'OPEN_MOUTH' ? { yaw: 0, pitch: 0, mouth: 0.5 } : { ...step.target, mouth: 0 };
  const distance = Math.hypot(target.yaw - from.yaw, target.pitch - from.pitch);
  const travelMs = (distance / speed) * 1000;
  const doneAt = reactionMs + travelMs + step.hold_ms + 600;
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
    batch.push({ frame: await head.frame(last), t });
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
  return { end: last, chunks: statuses };
}

/** Runs the whole paced challenge: reveal, perform, complete, until the server says selfie (or something else). */
export async function performChallenge(
  client: CaptureClient,
  head: SyntheticHead,
  options: PerformOptions = {},
): Promise<{ steps: RevealedStep[]; next: string; chunkStatuses: number[] }> {
  let from: HeadPose = { yaw: 0, pitch: 0, mouth: 0 };
  const steps: RevealedStep[] = [];
  const chunkStatuses: number[] = [];
  for (;;) {
    const started = Date.now();
    const revealed = await client.revealStep();
    if (revealed.status !== 201)
      throw new Error(`reveal answered ${revealed.status}: ${JSON.stringify(revealed.body)}`);
    const step = revealed.body as unknown as RevealedStep;
    steps.push(step);
    const { end, chunks } = await performStep(client, head, step, from, options);
    chunkStatuses.push(...chunks);
    from = end;
    const done = await client.completeStep(step.step_id);
    if (done.status !== 200) throw new Error(`complete answered ${done.status}: ${JSON.stringify(done.body)}`);
    if (process.env.PACED_DEBUG) console.log(JSON.stringify({ step, done: done.body, ms: Date.now() - started }));
    if (done.body.next !== 'step') return { steps, next: String(done.body.next), chunkStatuses };
  }
}
