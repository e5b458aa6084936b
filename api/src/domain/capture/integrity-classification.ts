import type {
  ConstraintProbe,
  FrameTiming,
  IntegritySignals,
  NativeFrameTiming,
  NativeSignals,
} from './capture-integrity';

export type CameraClass = 'physical' | 'virtual' | 'test_device' | 'unknown';
export type RendererClass = 'hardware' | 'software' | 'unavailable';

/**
 * Known virtual cameras, by what their drivers put in the device label (lower-cased substrings).
 * Order matters: the first match names the product. A virtual camera can feed any video (a
 * recording, a deepfake) to the page as if a lens saw it; one renamed to look physical is not caught.
 */
const VIRTUAL_CAMERAS: Array<[product: string, pattern: RegExp]> = [
  ['OBS Virtual Camera', /\bobs(?:[- ]?virtual[- ]?cam(?:era)?|[- ]camera)\b|obs-virtualcam/],
  ['ManyCam', /manycam/],
  ['v4l2loopback', /v4l2loopback|v4l2 loopback|dummy video device/],
  ['XSplit VCam', /xsplit/],
  ['Snap Camera', /snap camera/],
  ['CamTwist', /camtwist/],
  ['e2eSoft VCam', /e2esoft|\bvcam\b/],
  ['iVCam', /\bivcam\b/],
  ['NVIDIA Broadcast', /nvidia broadcast/],
  ['mmhmm', /mmhmm/],
  ['Reincubate Camo', /reincubate|\bcamo\b/],
  ['Elgato Virtual Camera', /elgato virtual/],
  ['Streamlabs', /streamlabs/],
  ['SplitCam', /splitcam/],
  ['AlterCam', /altercam/],
  ['CyberLink YouCam', /youcam/],
  ['Logi Capture', /logi capture/],
  ['vMix', /\bvmix\b/],
  ['Wirecast', /wirecast/],
  ['NDI Virtual Input', /\bndi\b/],
  ['Webcamoid', /webcamoid/],
  ['Unity Video Capture', /unity video capture/],
  ['Avatarify', /avatarify/],
  ['DroidCam', /droidcam/],
  ['Iriun Webcam', /iriun/],
  ['EpocCam', /epoccam/],
  ['Fake webcam', /fake ?webcam/],
  ['virtual camera', /virtual ?(?:cam|camera|webcam|video)/],
];

/**
 * Chromium's --use-fake-device-for-media-stream devices (generated frames, or a file with
 * --use-file-for-fake-video-capture, which labels the track with the file's path): automated tests,
 * never an applicant's camera.
 */
const TEST_DEVICES: Array<[product: string, pattern: RegExp]> = [
  ['Chromium fake device', /^fake_device_\d+$|\.(?:y4m|mjpeg|mjpg)$/],
];

export function classifyCameraLabel(label: string | null): { class: CameraClass; product: string | null } {
  const text = (label ?? '').trim().toLowerCase();
  // Browsers hide labels until the camera permission is granted: nothing to judge.
  if (!text) return { class: 'unknown', product: null };
  for (const [product, pattern] of TEST_DEVICES) if (pattern.test(text)) return { class: 'test_device', product };
  for (const [product, pattern] of VIRTUAL_CAMERAS) if (pattern.test(text)) return { class: 'virtual', product };
  return { class: 'physical', product: null };
}

/** Renderers that draw on the CPU: headless browsers, VMs and emulators, rarely a phone in a hand. */
const SOFTWARE_RENDERERS: Array<[name: string, pattern: RegExp]> = [
  ['SwiftShader', /swiftshader/],
  ['llvmpipe', /llvmpipe/],
  ['lavapipe', /lavapipe/],
  ['softpipe', /softpipe/],
  ['Microsoft Basic Render Driver', /microsoft basic render/],
  ['software renderer', /\bsoftware\b/],
];

export function classifyRenderer(renderer: string | null): { class: RendererClass; product: string | null } {
  const text = (renderer ?? '').trim().toLowerCase();
  if (!text) return { class: 'unavailable', product: null };
  for (const [name, pattern] of SOFTWARE_RENDERERS) if (pattern.test(text)) return { class: 'software', product: name };
  return { class: 'hardware', product: null };
}

/** Observations on frame timing; reported, never decisive (real cameras vary too much to judge alone). */
export type TimingNote = 'no_frame_callback' | 'no_frames' | 'low_frame_rate' | 'uniform_intervals';

/** Below 10 frames a second a liveness recording is thin; a camera rarely runs that slow. */
const SLOW_INTERVAL_MS = 100;
/** A real sensor's intervals wander by a millisecond or more; a synthetic source can be exact. */
const UNIFORM_JITTER_MS = 0.05;
const MIN_FRAMES_FOR_JITTER = 10;

export function timingNotes(timing: FrameTiming | NativeFrameTiming | null): TimingNote[] {
  if (!timing) return [];
  if ('api' in timing && timing.api === 'none') return ['no_frame_callback'];
  if (timing.frames === 0) return ['no_frames'];
  const notes: TimingNote[] = [];
  if (timing.median_interval_ms !== null && timing.median_interval_ms > SLOW_INTERVAL_MS) notes.push('low_frame_rate');
  if (timing.frames >= MIN_FRAMES_FOR_JITTER && timing.jitter_ms !== null && timing.jitter_ms < UNIFORM_JITTER_MS)
    notes.push('uniform_intervals');
  return notes;
}

/** The flags that count as a sign of tampering (the `fail` policy fails a production session on any). */
export const INTEGRITY_FLAGS = [
  'virtual_camera',
  'test_camera',
  'webdriver',
  'software_renderer',
  'probe_unresponsive',
  'emulator',
  'debugger_attached',
  'rooted_or_jailbroken',
  'hooking_framework',
  'external_camera',
] as const;
export type IntegrityFlag = (typeof INTEGRITY_FLAGS)[number];

/**
 * A native SDK's flags: each device fact it says is true, a camera the platform calls virtual, and a
 * face camera plugged in from outside (a USB capture card feeds any video, as a virtual camera does).
 */
export function nativeFlags(native: NativeSignals | null | undefined): IntegrityFlag[] {
  if (!native) return [];
  const flags: IntegrityFlag[] = [];
  const { device, camera } = native;
  if (device.emulator === true) flags.push('emulator');
  if (device.debugger_attached === true) flags.push('debugger_attached');
  if (device.rooted_or_jailbroken === true) flags.push('rooted_or_jailbroken');
  if (device.hooking_framework === true) flags.push('hooking_framework');
  if (camera?.virtual === true) flags.push('virtual_camera');
  if (camera?.position === 'external') flags.push('external_camera');
  return flags;
}

export function probeUnresponsive(probe: ConstraintProbe | null): boolean {
  return Boolean(probe?.supported && probe.responded === false);
}

export interface IntegrityAssessment {
  flags: IntegrityFlag[];
  notes: TimingNote[];
  camera: { class: CameraClass; product: string | null };
  renderer: { class: RendererClass; product: string | null };
}

export function assessIntegrity(signals: IntegritySignals): IntegrityAssessment {
  const camera = classifyCameraLabel(signals.camera_label);
  const renderer = classifyRenderer(signals.renderer);
  const flags: IntegrityFlag[] = [];
  if (camera.class === 'virtual') flags.push('virtual_camera');
  if (camera.class === 'test_device') flags.push('test_camera');
  if (signals.webdriver === true) flags.push('webdriver');
  if (renderer.class === 'software') flags.push('software_renderer');
  if (probeUnresponsive(signals.constraint_probe)) flags.push('probe_unresponsive');
  for (const flag of nativeFlags(signals.native)) if (!flags.includes(flag)) flags.push(flag);
  const notes = timingNotes(signals.frame_timing);
  for (const note of timingNotes(signals.native?.camera?.frame_timing ?? null))
    if (!notes.includes(note)) notes.push(note);
  return { flags, notes, camera, renderer };
}
