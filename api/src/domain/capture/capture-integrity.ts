/**
 * What the capturing client says about its own camera and browser (docs/capture-integrity.md).
 * Every field is the client's claim: a web page has no camera attestation, so these are signals a
 * careless attacker leaves, not proof. No personal data: device and software names, counts, times.
 */
export const INTEGRITY_CLIENTS = ['web', 'android', 'ios'] as const;
export type IntegrityClient = (typeof INTEGRITY_CLIENTS)[number];

export const PROBE_CONTROLS = ['exposure_compensation', 'exposure_time', 'zoom'] as const;
export type ProbeControl = (typeof PROBE_CONTROLS)[number];

/** A camera setting changed through applyConstraints, and whether the frames changed with it. */
export interface ConstraintProbe {
  /** The track exposes a control the probe can change (getCapabilities). */
  supported: boolean;
  control: ProbeControl | null;
  /** Null when not supported, or when the change itself was refused. */
  responded: boolean | null;
  /** Mean absolute grey-level change (0–255) of a small thumbnail across the change, and between frames before it. */
  change: number | null;
  baseline: number | null;
}

/** Frame delivery as requestVideoFrameCallback saw it while the camera was open. */
export interface FrameTiming {
  /** `none`: the browser has no requestVideoFrameCallback (nothing was measured). */
  api: 'rvfc' | 'none';
  frames: number;
  median_interval_ms: number | null;
  /** Standard deviation of the intervals. */
  jitter_ms: number | null;
}

export interface IntegritySignals {
  client: IntegrityClient;
  camera_label: string | null;
  webdriver: boolean | null;
  /** The WebGL unmasked renderer string (null: WebGL unavailable). */
  renderer: string | null;
  constraint_probe: ConstraintProbe | null;
  frame_timing: FrameTiming | null;
}

/** The signals as stored with the capture state: what was sent, and when. */
export interface CapturedIntegrity {
  signals: IntegritySignals;
  received_at: Date;
  uploads: number;
}

/** Per-account: `report` shows the signals in the evidence report; `fail` also fails a flagged production session. */
export const CAPTURE_INTEGRITY_POLICIES = ['report', 'fail'] as const;
export type CaptureIntegrityPolicy = (typeof CAPTURE_INTEGRITY_POLICIES)[number];
