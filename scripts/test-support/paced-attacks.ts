/**
 * The paced challenge's attack species (and its bona fide control), as the capture test and
 * `npm run eval -- --task pad_paced` both perform them through the capture API. Each trial draws
 * its own parameters from a seeded stream, so a run can be repeated exactly and trials differ.
 */
import { livenessSources } from '../../inference/tools/testdata/faces/face-sources';
import { blinking, type HeadPose, type PerformOptions, type RevealedStep, SyntheticHead } from './paced-performer';
import { between, seededRandom } from './seeded-random';

export const pacedSpecies = [
  'live-paced',
  'rigid-blinking',
  'spliced-offline',
  'nearest-pose-puppet',
  'reused-capture',
] as const;
export type PacedSpecies = (typeof pacedSpecies)[number];

/** What each species is, for the report. */
export const speciesNotes: Record<PacedSpecies, string> = {
  'live-paced':
    'bona fide control: the synthetic head follows each revealed target after a human reaction lag and opens its mouth',
  'rigid-blinking':
    'a photo on a 3D shape that blinks (eyes closed ~150 ms every 2-4 s) and follows the targets; its mouth never deforms',
  'spliced-offline':
    'a recording made beforehand (turns to 4 fixed directions, a talking segment), cut by step kind only (direction guessed), posted in real time stamped 140 ms early',
  'nearest-pose-puppet':
    'a real-time puppet replaying, for each target, the frames of a video-call recording (yaw mostly ±15°, some ±22°, pitch ±6°, talking) nearest in pose along a smooth path, after a human reaction lag',
  'reused-capture':
    "a completed live trial's frames, selfie and document posted byte for byte into a new session of the same account",
};

export interface TrialParams {
  subject: string;
  reactionMs: number;
  /** Degrees a second. */
  speed: number;
  frameMs: number;
  tint: [number, number, number];
  noise: number;
  seed: number;
}

/** A trial's parameters: subject among the liveness sources, reaction 150-450 ms, 60-140 °/s, 7-10 frames/s, a small cast and noise. */
export function drawTrial(random: () => number, subjects = livenessSources.map((s) => s.identity)): TrialParams {
  return {
    subject: subjects[Math.floor(random() * subjects.length)],
    reactionMs: Math.round(between(random, 150, 450)),
    speed: Math.round(between(random, 60, 140)),
    frameMs: Math.round(1000 / between(random, 7, 10)),
    tint: [between(random, 0.95, 1.05), between(random, 0.95, 1.05), between(random, 0.95, 1.05)],
    noise: between(random, 1, 4),
    seed: Math.floor(random() * 2 ** 31),
  };
}

export function headFor(params: TrialParams, mouthWarp = true): SyntheticHead {
  return new SyntheticHead(mouthWarp, {
    subject: params.subject,
    tint: params.tint,
    noise: params.noise,
    seed: params.seed,
  });
}

/**
 * How the live head performs: following each target with the trial's reaction, speed and frame
 * rate, and opening the mouth, when asked to open it wide, to between 0.7 and 1 of the head's
 * widest (the lips parted by 35-50 % of the mouth's width; drawn from the trial's own seed, so the
 * other parameters' stream is as before).
 */
export function livePerformance(params: TrialParams): PerformOptions {
  const mouthOpen = 0.7 + 0.3 * seededRandom(params.seed ^ 0x6d6f)();
  return { reactionMs: params.reactionMs, speed: params.speed, frameMs: params.frameMs, mouthOpen };
}

/** The rigid head: follows like a live one, blinks, never opens its mouth (render it with `headFor(params, false)`). */
export function rigidBlinkingPerformance(params: TrialParams): PerformOptions {
  return { ...livePerformance(params), eyesClosedAt: blinking(params.seed) };
}

const smooth = (k: number) => {
  const c = Math.min(1, Math.max(0, k));
  return c * c * (3 - 2 * c);
};

/**
 * The recording cut offline: made before any target was known, so for a HOLD_POSE step the cutter
 * can only pick one of the recorded turns (left, right, up, down: 20° and 10°) at random, and for
 * OPEN_MOUTH the talking segment facing the camera. It knows the step's kind and hold time (both
 * revealed), starts each segment moving at once (no reaction to wait for), and stamps frames 140 ms
 * ahead of their sending, the most the server's bound allows.
 */
export function splicedOfflinePerformance(params: TrialParams): PerformOptions {
  const random = seededRandom(params.seed ^ 0x5151);
  const directions = [
    { yaw: 20, pitch: 0 },
    { yaw: -20, pitch: 0 },
    { yaw: 0, pitch: 10 },
    { yaw: 0, pitch: -10 },
  ];
  const guesses = new Map<string, { yaw: number; pitch: number }>();
  const recordedSpeed = 90;
  const guessFor = (step: RevealedStep) => {
    let guess = guesses.get(step.step_id);
    if (!guess) {
      guess = step.kind === 'OPEN_MOUTH' ? { yaw: 0, pitch: 0 } : directions[Math.floor(random() * directions.length)];
      guesses.set(step.step_id, guess);
    }
    return guess;
  };
  return {
    frameMs: params.frameMs,
    framesPerChunk: 2,
    stampLeadMs: 140,
    poseAt: (step, t, from) => {
      const guess = guessFor(step);
      const travel = (Math.hypot(guess.yaw - from.yaw, guess.pitch - from.pitch) / recordedSpeed) * 1000;
      const k = smooth(t / Math.max(1, travel));
      // The talking segment: the mouth opens and closes about three times a second.
      const talking =
        step.kind === 'OPEN_MOUTH' && t > travel ? 0.5 * Math.max(0, Math.sin((2 * Math.PI * (t - travel)) / 330)) : 0;
      return {
        yaw: from.yaw + (guess.yaw - from.yaw) * k,
        pitch: from.pitch + (guess.pitch - from.pitch) * k,
        mouth: from.mouth * (1 - k) + talking,
      };
    },
    durationMs: (step, from) => {
      const guess = guessFor(step);
      return (Math.hypot(guess.yaw - from.yaw, guess.pitch - from.pitch) / recordedSpeed) * 1000 + step.hold_ms + 300;
    },
  };
}

/** One recorded frame of the puppet's source video: its pose and mouth (the attacker's own estimate). */
export interface RecordedFrame {
  yaw: number;
  pitch: number;
  mouth: number;
}

/**
 * The victim's video-call recording the puppet draws on: ~45 s at 8-10 frames a second, the head
 * wandering (yaw mostly within ±15°, a few excursions to ±22°, pitch within ±6°) and talking
 * (the mouth opens at times).
 */
export function videoCallRecording(random: () => number): RecordedFrame[] {
  const fps = between(random, 8, 10);
  const n = Math.round(45 * fps);
  const wave = () => ({ period: between(random, 2, 12), phase: random() * 2 * Math.PI });
  const [y1, y2, p1, p2] = [wave(), wave(), wave(), wave()];
  const excursions = Array.from({ length: 4 }, () => ({
    at: between(random, 3, 42),
    height: (random() < 0.5 ? -1 : 1) * between(random, 7, 10),
    width: between(random, 0.8, 1.6),
  }));
  const talking = Array.from({ length: 8 }, () => ({ at: between(random, 0, 42), length: between(random, 1.5, 4) }));
  const clamp = (v: number, lim: number) => Math.max(-lim, Math.min(lim, v));
  return Array.from({ length: n }, (_, i) => {
    const s = i / fps;
    const sine = (w: { period: number; phase: number }) => Math.sin((2 * Math.PI * s) / w.period + w.phase);
    const bump = excursions.reduce((sum, e) => sum + e.height * Math.exp(-(((s - e.at) / e.width) ** 2)), 0);
    const speaking = talking.some((t) => s >= t.at && s < t.at + t.length);
    return {
      yaw: clamp(10 * sine(y1) + 4 * sine(y2) + bump, 22),
      pitch: clamp(4 * sine(p1) + 2 * sine(p2), 6),
      mouth: speaking ? 0.5 * Math.max(0, Math.sin(2 * Math.PI * s * 2.7)) : 0,
    };
  });
}

/**
 * The real-time puppet: after a human reaction lag it moves a wanted pose smoothly from where it
 * is toward the revealed target at the trial's turn speed, and shows the recorded frame nearest
 * that pose (mouth closed preferred); for OPEN_MOUTH it moves to the frontal pose and plays the
 * most open frames within 6° of it, in recorded order. It knows what the step reveals (kind,
 * target, tolerance, hold time, deadline) and what docs/paced-challenge.md publishes, not the
 * server's pose estimates; it cannot show a pose the recording lacks (beyond ±22° yaw, ±6° pitch).
 */
export function nearestPosePuppetPerformance(params: TrialParams): PerformOptions & { recording: RecordedFrame[] } {
  const recording = videoCallRecording(seededRandom(params.seed ^ 0x9e37));
  const open = recording
    .map((f, at) => ({ f, at }))
    .filter(({ f }) => Math.hypot(f.yaw, f.pitch) <= 6 && f.mouth >= 0.25)
    .sort((a, b) => b.f.mouth - a.f.mouth)
    .slice(0, 12)
    .sort((a, b) => a.at - b.at)
    .map(({ f }) => f);
  const nearest = (wanted: { yaw: number; pitch: number }): RecordedFrame =>
    recording.reduce((best, f) => {
      const cost = (f: RecordedFrame) =>
        (f.yaw - wanted.yaw) ** 2 + (f.pitch - wanted.pitch) ** 2 + (f.mouth * 20) ** 2;
      return cost(f) < cost(best) ? f : best;
    });
  const wantedAt = (step: RevealedStep, t: number, from: HeadPose) => {
    const target = step.kind === 'OPEN_MOUTH' ? { yaw: 0, pitch: 0 } : step.target;
    const travel = (Math.hypot(target.yaw - from.yaw, target.pitch - from.pitch) / params.speed) * 1000;
    const k = smooth((t - params.reactionMs) / Math.max(1, travel));
    return { yaw: from.yaw + (target.yaw - from.yaw) * k, pitch: from.pitch + (target.pitch - from.pitch) * k, travel };
  };
  return {
    recording,
    reactionMs: params.reactionMs,
    speed: params.speed,
    frameMs: params.frameMs,
    poseAt: (step, t, from) => {
      const wanted = wantedAt(step, t, from);
      if (step.kind === 'OPEN_MOUTH' && open.length && t >= params.reactionMs + wanted.travel) {
        const n = Math.floor((t - params.reactionMs - wanted.travel) / params.frameMs);
        return { ...open[n % open.length] };
      }
      return { ...nearest(wanted) };
    },
    durationMs: (step, from) => wantedAt(step, 0, from).travel + params.reactionMs + step.hold_ms + 600,
  };
}
