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

/** Where the camera faces: Camera2 LENS_FACING, AVCaptureDevice.Position; `external` a USB or Continuity camera. */
export const CAMERA_POSITIONS = ['front', 'back', 'external', 'unknown'] as const;
export type CameraPosition = (typeof CAMERA_POSITIONS)[number];

/**
 * The app's own account of the device it runs on. Each is the SDK's claim: an app on a rooted or
 * jailbroken device can be patched to answer `false`. Null where the SDK could not tell.
 */
export interface NativeDevice {
  emulator: boolean | null;
  debugger_attached: boolean | null;
  rooted_or_jailbroken: boolean | null;
  /** Frida, Xposed, Substrate and the like, found loaded or installed. */
  hooking_framework: boolean | null;
  /** The integrating app's package name or bundle id: the integrator's, not the applicant's. */
  app_id: string | null;
  os_version: string | null;
  sdk_version: string | null;
}

/** Frame delivery as the camera stack timed it: the sensor's own timestamps, not the app's clock. */
export interface NativeFrameTiming {
  /** `sensor_timestamp`: Camera2 SENSOR_TIMESTAMP; `presentation_time`: CMSampleBuffer presentation times. */
  source: 'sensor_timestamp' | 'presentation_time';
  frames: number;
  median_interval_ms: number | null;
  jitter_ms: number | null;
}

/** The face camera as the platform's camera stack describes it. */
export interface NativeCamera {
  position: CameraPosition;
  /** AVCaptureDevice.DeviceType (`builtInWideAngleCamera`, ...); Camera2's hardware level (`full`, `limited`, ...). */
  device_type: string | null;
  /** The platform says the camera is not a physical sensor of this device (a logical multi-camera is not virtual). */
  virtual: boolean | null;
  frame_timing: NativeFrameTiming | null;
}

/**
 * What a native SDK adds (clients `android` and `ios` only). Not attested: a Play Integrity or App
 * Attest token would back these claims, but verifying one needs Google's or Apple's servers. The
 * seam for it is the `PlatformAttestationVerifier` port (docs/capture-integrity.md).
 */
export interface NativeSignals {
  device: NativeDevice;
  camera: NativeCamera | null;
}

export interface IntegritySignals {
  client: IntegrityClient;
  camera_label: string | null;
  webdriver: boolean | null;
  /** The WebGL unmasked renderer string (null: WebGL unavailable). */
  renderer: string | null;
  constraint_probe: ConstraintProbe | null;
  frame_timing: FrameTiming | null;
  /** Absent (or null) from the web page; a native SDK's device and camera facts. */
  native?: NativeSignals | null;
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
