import { INTEGRITY_CLIENTS, PROBE_CONTROLS } from '../../../domain/capture/capture-integrity';
import { z } from './zod-openapi';

/** The route's body bound: every field at its longest is under 1 KiB. */
export const INTEGRITY_BODY_LIMIT_BYTES = 4 * 1024;
export const CAMERA_LABEL_MAX = 128;
export const RENDERER_MAX = 256;

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

export const integrityUploadRequest = z
  .strictObject({
    client: z.enum(INTEGRITY_CLIENTS).openapi({
      description: 'Who collected the signals: the hosted page (web); the native SDKs (android, ios) later',
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
    flags: z.array(z.enum(['virtual_camera', 'test_camera', 'webdriver', 'software_renderer', 'probe_unresponsive'])),
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
      })
      .nullable()
      .openapi({
        description:
          'What the client sent, without the raw camera label or renderer string (their class and known product only). Null when nothing was sent.',
      }),
  })
  .openapi('CaptureIntegrityEvidence');
