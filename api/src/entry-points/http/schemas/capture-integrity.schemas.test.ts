import { AppError } from '../../../shared/app-error';
import { validate } from '../validation';
import { integrityUploadRequest } from './capture-integrity.schemas';
import { androidSignals } from '../../../domain/capture/native-signals.fixture';

const valid = {
  client: 'web',
  camera_label: 'fake_device_0',
  webdriver: true,
  renderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
  constraint_probe: { supported: false, control: null, responded: null, change: null, baseline: null },
  frame_timing: { api: 'rvfc', frames: 28, median_interval_ms: 33.4, jitter_ms: 2.2 },
};

/** The fields a refusal names, or the parsed body when accepted. */
function fieldsRefused(body: unknown): string[] {
  try {
    validate(integrityUploadRequest, body);
    return [];
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe('VALIDATION_ERROR');
    return (error.details ?? []).map((d) => d.field).sort();
  }
}

describe('validating the capture-integrity signals', () => {
  it("accepts the page's signals, and a native client's with nulls where it has nothing", () => {
    expect(fieldsRefused(valid)).toEqual([]);
    expect(
      fieldsRefused({
        client: 'ios',
        camera_label: null,
        webdriver: null,
        renderer: null,
        constraint_probe: null,
        frame_timing: null,
      }),
    ).toEqual([]);
  });

  it('refuses unknown fields, at the top and inside the probe and timing', () => {
    expect(
      fieldsRefused({
        ...valid,
        face: 'x',
        constraint_probe: { ...valid.constraint_probe, iso: 100 },
        frame_timing: { ...valid.frame_timing, fps: 30 },
      }),
    ).toEqual(['constraint_probe.iso', 'face', 'frame_timing.fps']);
  });

  it('refuses a label over 128 characters, a renderer over 256, an unknown client and out-of-range numbers', () => {
    expect(
      fieldsRefused({
        ...valid,
        client: 'desktop',
        camera_label: 'x'.repeat(129),
        renderer: 'y'.repeat(257),
        frame_timing: { ...valid.frame_timing, frames: -1, jitter_ms: 1e9 },
        constraint_probe: { ...valid.constraint_probe, change: 300 },
      }),
    ).toEqual([
      'camera_label',
      'client',
      'constraint_probe.change',
      'frame_timing.frames',
      'frame_timing.jitter_ms',
      'renderer',
    ]);
  });

  it('refuses a body missing its fields, or one of the wrong types, naming each', () => {
    expect(fieldsRefused({ client: 'web', webdriver: 'yes' })).toEqual([
      'camera_label',
      'constraint_probe',
      'frame_timing',
      'renderer',
      'webdriver',
    ]);
    expect(fieldsRefused([])).toEqual(['body']);
  });
});

describe("validating a native SDK's device and camera facts", () => {
  const android = androidSignals({ rooted_or_jailbroken: null });

  it('accepts the native block from android and ios, and without a camera; the web body without it stays valid', () => {
    expect(fieldsRefused(android)).toEqual([]);
    expect(fieldsRefused({ ...android, client: 'ios', native: { ...android.native, camera: null } })).toEqual([]);
    expect(fieldsRefused({ ...android, native: null })).toEqual([]);
    expect(validate(integrityUploadRequest, valid)).toEqual(valid);
  });

  it('refuses the native block from the web page', () => {
    expect(fieldsRefused({ ...valid, native: android.native })).toEqual(['native']);
  });

  it('refuses unknown fields inside the device, the camera and its timing (no serial, no IMEI slips in)', () => {
    expect(
      fieldsRefused({
        ...android,
        native: {
          ...android.native,
          imei: '35',
          device: { ...android.native.device, serial: 'R58M' },
          camera: {
            ...android.native.camera,
            lens: 'wide',
            frame_timing: { ...android.native.camera.frame_timing, fps: 30 },
          },
        },
      }),
    ).toEqual(['native.camera.frame_timing.fps', 'native.camera.lens', 'native.device.serial', 'native.imei']);
  });

  it('refuses facts of the wrong type, an unknown position or timing source, and over-long names, naming each', () => {
    expect(
      fieldsRefused({
        ...android,
        native: {
          device: {
            ...android.native.device,
            emulator: 'no',
            debugger_attached: 0,
            app_id: 'a'.repeat(129),
            os_version: 'v'.repeat(33),
          },
          camera: {
            ...android.native.camera,
            position: 'side',
            virtual: 'maybe',
            frame_timing: { ...android.native.camera.frame_timing, source: 'app_clock', frames: 1.5 },
          },
        },
      }),
    ).toEqual([
      'native.camera.frame_timing.frames',
      'native.camera.frame_timing.source',
      'native.camera.position',
      'native.camera.virtual',
      'native.device.app_id',
      'native.device.debugger_attached',
      'native.device.emulator',
      'native.device.os_version',
    ]);
    expect(fieldsRefused({ ...android, native: { device: android.native.device } })).toEqual(['native.camera']);
  });
});
