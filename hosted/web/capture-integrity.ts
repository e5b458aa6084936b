/**
 * The capture-integrity signals (docs/capture-integrity.md), collected once the face camera is
 * open and sent to `PUT /v1/capture/{id}/integrity`. Each is a claim the page makes about itself:
 * a browser under an attacker's control can forge every one, so they catch careless injection
 * (a virtual camera, an automated browser), never prove a camera is real.
 */
import type { components } from './generated/openapi-types';
import {
  greyOf,
  meanAbsDifference,
  meanThumbnail,
  responded,
  summarizeTiming,
  TimingSummary,
} from './integrity-measures';

export type IntegritySignals = components['schemas']['CaptureIntegrity'];
type ConstraintProbe = NonNullable<components['schemas']['ConstraintProbe']>;
type FrameTiming = NonNullable<components['schemas']['FrameTiming']>;
type ProbeControl = NonNullable<ConstraintProbe['control']>;

const LABEL_MAX = 128;
const RENDERER_MAX = 256;
/** Long enough for ~30 frames at 30 fps, short enough not to keep the applicant waiting. */
const TIMING_WINDOW_MS = 1000;
/** The camera's exposure or zoom takes a few frames to settle after a change. */
const SETTLE_MS = 600;
const THUMB_W = 32;
const THUMB_H = 24;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function collectIntegrity(video: HTMLVideoElement, stream: MediaStream): Promise<IntegritySignals> {
  const track = stream.getVideoTracks()[0] ?? null;
  const frameTiming = await measureFrameTiming(video);
  const probe = track ? await probeConstraints(track, video) : null;
  return {
    client: 'web',
    camera_label: track?.label ? track.label.slice(0, LABEL_MAX) : null,
    webdriver: navigator.webdriver === true,
    renderer: webglRenderer(),
    constraint_probe: probe,
    frame_timing: frameTiming,
  };
}

function measureFrameTiming(video: HTMLVideoElement): Promise<FrameTiming> {
  if (typeof video.requestVideoFrameCallback !== 'function')
    return Promise.resolve({ api: 'none', frames: 0, median_interval_ms: null, jitter_ms: null });
  return new Promise((resolve) => {
    const times: number[] = [];
    let handle = 0;
    const onFrame: VideoFrameRequestCallback = (now, metadata) => {
      // The capture time where the browser gives it (a camera's own clock), else the callback's.
      times.push(metadata.captureTime ?? now);
      handle = video.requestVideoFrameCallback(onFrame);
    };
    handle = video.requestVideoFrameCallback(onFrame);
    setTimeout(() => {
      video.cancelVideoFrameCallback(handle);
      const summary: TimingSummary = summarizeTiming(times);
      resolve({ api: 'rvfc', ...summary });
    }, TIMING_WINDOW_MS);
  });
}

function webglRenderer(): string | null {
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    if (!gl) return null;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const value: unknown = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return typeof value === 'string' && value ? value.slice(0, RENDERER_MAX) : null;
  } catch {
    return null;
  }
}

interface Range {
  min: number;
  max: number;
}
const isRange = (value: unknown): value is Range =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Range).min === 'number' &&
  typeof (value as Range).max === 'number' &&
  (value as Range).max > (value as Range).min;

interface ProbePlan {
  control: ProbeControl;
  change: MediaTrackConstraintSet;
  restore: MediaTrackConstraintSet;
}

/** The first control this camera lets the page change, moved to the end of its range farther from now. */
function planProbe(track: MediaStreamTrack): ProbePlan | null {
  const capabilities = (track.getCapabilities?.() ?? {}) as Record<string, unknown>;
  const settings = track.getSettings() as Record<string, unknown>;
  const farEnd = (range: Range, current: unknown) => {
    const now = typeof current === 'number' ? current : (range.min + range.max) / 2;
    return now - range.min > range.max - now ? range.min : range.max;
  };
  const set = (values: Record<string, unknown>) => values as MediaTrackConstraintSet;
  const compensation = capabilities.exposureCompensation;
  if (isRange(compensation))
    return {
      control: 'exposure_compensation',
      change: set({ exposureCompensation: farEnd(compensation, settings.exposureCompensation) }),
      restore: set({ exposureCompensation: settings.exposureCompensation ?? 0 }),
    };
  const modes = capabilities.exposureMode;
  const time = capabilities.exposureTime;
  if (Array.isArray(modes) && modes.includes('manual') && isRange(time))
    return {
      control: 'exposure_time',
      change: set({ exposureMode: 'manual', exposureTime: farEnd(time, settings.exposureTime) }),
      restore: set({ exposureMode: settings.exposureMode ?? 'continuous' }),
    };
  const zoom = capabilities.zoom;
  if (isRange(zoom))
    return {
      control: 'zoom',
      change: set({ zoom: farEnd(zoom, settings.zoom) }),
      restore: set({ zoom: settings.zoom ?? zoom.min }),
    };
  return null;
}

async function thumbnails(video: HTMLVideoElement, count: number): Promise<number[][]> {
  const canvas = document.createElement('canvas');
  canvas.width = THUMB_W;
  canvas.height = THUMB_H;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return [];
  const taken: number[][] = [];
  for (let i = 0; i < count; i++) {
    context.drawImage(video, 0, 0, THUMB_W, THUMB_H);
    taken.push(greyOf(context.getImageData(0, 0, THUMB_W, THUMB_H).data));
    await sleep(100);
  }
  return taken;
}

/** Changes one camera setting, looks whether the picture changed with it, and puts it back. */
async function probeConstraints(track: MediaStreamTrack, video: HTMLVideoElement): Promise<ConstraintProbe> {
  const plan = planProbe(track);
  if (!plan) return { supported: false, control: null, responded: null, change: null, baseline: null };
  const before = await thumbnails(video, 3);
  const baseline = before.length > 1 ? Math.max(...before.slice(1).map((t, i) => meanAbsDifference(before[i], t))) : 0;
  try {
    await track.applyConstraints({ advanced: [plan.change] });
  } catch {
    return { supported: true, control: plan.control, responded: null, change: null, baseline };
  }
  await sleep(SETTLE_MS);
  const after = await thumbnails(video, 2);
  await track.applyConstraints({ advanced: [plan.restore] }).catch(() => undefined);
  const change = meanAbsDifference(meanThumbnail(before), meanThumbnail(after));
  return { supported: true, control: plan.control, responded: responded(change, baseline), change, baseline };
}
