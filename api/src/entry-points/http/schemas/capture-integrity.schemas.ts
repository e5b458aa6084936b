import { CAMERA_POSITIONS, INTEGRITY_CLIENTS, PROBE_CONTROLS } from '../../../domain/capture/capture-integrity';
import { INTEGRITY_FLAGS } from '../../../domain/capture/integrity-classification';
import { z } from './zod-openapi';

/** The route's body bound: every field at its longest is under 1 KiB. */
export const INTEGRITY_BODY_LIMIT_BYTES = 4 * 1024;
export const CAMERA_LABEL_MAX = 128;
export const RENDERER_MAX = 256;
export const APP_ID_MAX = 128;
export const VERSION_MAX = 32;
export const DEVICE_TYPE_MAX = 64;

const greyLevel = z.number().min(0).max(255);

const constraintProbe = z
  .strictObject({
    supported: z.boolean().openapi({ description: 'getCapabilities() offered a control the probe could change' }),
    control: z.enum(PROBE_CONTROLS).nullable(),
    responded: z.boolean().nullable().openapi({
      description: 'The frames changed with the setting (null: not supported, or the change was refused)',
    }),
    change: greyLevel.nullable().openapi({
      description: "Mean absolute grey-level change (0–255) of a small thumbnail across the setting's change",
    }),
    baseline: greyLevel.nullable().openapi({ description: 'The same between frames before the change (noise)' }),
  })
  .openapi('ConstraintProbe');

const frameTiming = z
  .strictObject({
    api: z.enum(['rvfc', 'none']).openapi({ description: 'none: the browser has no requestVideoFrameCallback' }),
    frames: z.number().int().min(0).max(10_000),
    median_interval_ms: z.number().min(0).max(60_000).nullable(),
    jitter_ms: z.number().min(0).max(60_000).nullable().openapi({ description: 'Standard deviation of the intervals' }),
  })
  .openapi('FrameTiming');

const fact = (description: string) =>
  z
    .boolean()
    .nullable()
    .openapi({ description: `${description} (null: not known)` });

const nativeDevice = z
  .strictObject({
    emulator: fact('The app runs in an emulator or simulator'),
    debugger_attached: fact('A debugger is attached to the app'),
    rooted_or_jailbroken: fact('The device is rooted (Android) or jailbroken (iOS)'),
    hooking_framework: fact('A hooking framework (Frida, Xposed, Substrate) is loaded or installed'),
    app_id: z
      .string()
      .max(APP_ID_MAX)
      .nullable()
      .openapi({ description: "The integrating app's package name or bundle id" }),
    os_version: z.string().max(VERSION_MAX).nullable().openapi({ description: 'Android release or iOS version' }),
    sdk_version: z.string().max(VERSION_MAX).nullable().openapi({ description: "The bioverify SDK's version" }),
  })
  .openapi('NativeDevice');

const nativeFrameTiming = z
  .strictObject({
    source: z.enum(['sensor_timestamp', 'presentation_time']).openapi({
      description: 'Camera2 SENSOR_TIMESTAMP (android) or CMSampleBuffer presentation times (ios)',
    }),
    frames: z.number().int().min(0).max(10_000),
    median_interval_ms: z.number().min(0).max(60_000).nullable(),
    jitter_ms: z.number().min(0).max(60_000).nullable().openapi({ description: 'Standard deviation of the intervals' }),
  })
  .openapi('NativeFrameTiming');

const nativeCamera = z
  .strictObject({
    position: z.enum(CAMERA_POSITIONS).openapi({
      description: 'Camera2 LENS_FACING or AVCaptureDevice.Position; external: a USB or Continuity camera',
    }),
    device_type: z.string().max(DEVICE_TYPE_MAX).nullable().openapi({
      description: "AVCaptureDevice.DeviceType (ios) or Camera2's INFO_SUPPORTED_HARDWARE_LEVEL (android)",
    }),
    virtual: z
      .boolean()
      .nullable()
      .openapi({ description: 'The platform says the camera is not a physical sensor of this device' }),
    frame_timing: nativeFrameTiming.nullable(),
  })
  .openapi('NativeCamera');

const nativeSignals = z
  .strictObject({ device: nativeDevice, camera: nativeCamera.nullable() })
  .openapi('NativeIntegritySignals', {
    description:
      "A native SDK's account of its device and face camera (clients android and ios only). The app's own claims: not backed by platform attestation (Play Integrity, App Attest), which this deployment does not verify.",
  });

export const integrityUploadRequest = z
  .strictObject({
    client: z.enum(INTEGRITY_CLIENTS).openapi({
      description: 'Who collected the signals: the hosted page (web) or a native SDK (android, ios)',
    }),
    camera_label: z
      .string()
      .max(CAMERA_LABEL_MAX)
      .nullable()
      .openapi({ description: 'The video track label (MediaStreamTrack.label), as the browser gave it' }),
    webdriver: z.boolean().nullable().openapi({ description: 'navigator.webdriver (null where the client has none)' }),
    renderer: z
      .string()
      .max(RENDERER_MAX)
      .nullable()
      .openapi({ description: 'The WebGL unmasked renderer (null: WebGL unavailable)' }),
    constraint_probe: constraintProbe.nullable(),
    frame_timing: frameTiming.nullable(),
    native: nativeSignals.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.native && body.client === 'web')
      ctx.addIssue({ code: 'custom', path: ['native'], message: 'only the native SDKs (android, ios) send it' });
  })
  .openapi('CaptureIntegrity', {
    description:
      "The client's own account of its camera and browser, weighed by the decision as the `capture_integrity` check (docs/capture-integrity.md). Claims, not proof: a web page has no camera attestation. No personal data.",
  });

export const integrityUploadResponse = z.object({ recorded: z.literal(true) }).openapi('CaptureIntegrityReceipt', {
  description: 'Recorded for the decision; nothing about how the signals were judged is revealed here.',
});

const productClass = <T extends [string, ...string[]]>(classes: T) =>
  z.object({
    class: z.enum(classes),
    product: z.string().nullable().openapi({ description: 'The known product matched, if any' }),
  });

export const integrityReportEvidence = z
  .object({
    policy: z.enum(['report', 'fail']).openapi({ description: "The account's capture_integrity_policy" }),
    enforced: z.boolean().openapi({
      description: 'Whether a flag fails the session: policy fail on a production session (sandbox: never)',
    }),
    flags: z.array(z.enum(INTEGRITY_FLAGS)),
    notes: z
      .array(z.enum(['no_frame_callback', 'no_frames', 'low_frame_rate', 'uniform_intervals']))
      .openapi({ description: 'Frame-timing observations: reported, never decisive' }),
    signals: z
      .object({
        client: z.enum(INTEGRITY_CLIENTS),
        camera: productClass(['physical', 'virtual', 'test_device', 'unknown']),
        webdriver: z.boolean().nullable(),
        renderer: productClass(['hardware', 'software', 'unavailable']),
        constraint_probe: constraintProbe.nullable(),
        frame_timing: frameTiming.nullable(),
        native: nativeSignals.nullable(),
      })
      .nullable()
      .openapi({
        description:
          "What the client sent, without the raw camera label or renderer string (their class and known product only), and a native SDK's facts as sent (null from the web page). Null when nothing was sent.",
      }),
  })
  .openapi('CaptureIntegrityEvidence');
