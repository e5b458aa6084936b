import type { IntegritySignals } from './capture-integrity';
import {
  assessIntegrity,
  classifyCameraLabel,
  classifyRenderer,
  nativeFlags,
  timingNotes,
} from './integrity-classification';
import { androidSignals, frontCamera, plainDevice } from './native-signals.fixture';

describe('classifying the camera label', () => {
  it.each([
    ['OBS Virtual Camera', 'OBS Virtual Camera'],
    ['OBS-Camera', 'OBS Virtual Camera'],
    ['ManyCam Virtual Webcam', 'ManyCam'],
    ['Dummy video device (0x0000)', 'v4l2loopback'],
    ['v4l2loopback: Virtual Cam', 'v4l2loopback'],
    ['XSplit VCam', 'XSplit VCam'],
    ['Snap Camera', 'Snap Camera'],
    ['CamTwist', 'CamTwist'],
    ['e2eSoft VCam', 'e2eSoft VCam'],
    ['NVIDIA Broadcast', 'NVIDIA Broadcast'],
    ['mmhmm Camera', 'mmhmm'],
    ['Some Brand Virtual Camera', 'virtual camera'],
  ])('names %s a virtual camera (%s)', (label, product) => {
    expect(classifyCameraLabel(label)).toEqual({ class: 'virtual', product });
  });

  it("classes chromium's fake devices (generated, or played from a file) as test devices, not an applicant's camera", () => {
    expect(classifyCameraLabel('fake_device_0')).toEqual({ class: 'test_device', product: 'Chromium fake device' });
    expect(classifyCameraLabel('/tmp/camera-files-3xk/challenge.y4m')).toEqual({
      class: 'test_device',
      product: 'Chromium fake device',
    });
  });

  it.each([
    'FaceTime HD Camera (1C1C:B782)',
    'camera2 1, facing front',
    'Integrated Camera (04f2:b6dd)',
    'Logitech BRIO (046d:085e)',
    'Front Camera',
  ])('takes %s for a physical camera', (label) => {
    expect(classifyCameraLabel(label)).toEqual({ class: 'physical', product: null });
  });

  it('judges nothing from an empty or missing label (the browser hides it without permission)', () => {
    expect(classifyCameraLabel('')).toEqual({ class: 'unknown', product: null });
    expect(classifyCameraLabel(null)).toEqual({ class: 'unknown', product: null });
  });
});

describe('classifying the WebGL renderer', () => {
  it.each([
    ['ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)', 'SwiftShader'],
    ['llvmpipe (LLVM 15.0.6, 256 bits)', 'llvmpipe'],
    ['Microsoft Basic Render Driver', 'Microsoft Basic Render Driver'],
    ['Google SwiftShader', 'SwiftShader'],
  ])('names %s a software renderer', (renderer, product) => {
    expect(classifyRenderer(renderer)).toEqual({ class: 'software', product });
  });

  it('takes a GPU for hardware and a missing WebGL for unavailable', () => {
    expect(classifyRenderer('Adreno (TM) 740')).toEqual({ class: 'hardware', product: null });
    expect(classifyRenderer('ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)').class).toBe(
      'hardware',
    );
    expect(classifyRenderer(null)).toEqual({ class: 'unavailable', product: null });
  });
});

describe('frame timing notes', () => {
  it('notes a browser without requestVideoFrameCallback, and a stream that delivered nothing', () => {
    expect(timingNotes({ api: 'none', frames: 0, median_interval_ms: null, jitter_ms: null })).toEqual([
      'no_frame_callback',
    ]);
    expect(timingNotes({ api: 'rvfc', frames: 0, median_interval_ms: null, jitter_ms: null })).toEqual(['no_frames']);
  });

  it('notes a slow stream and perfectly even intervals, and nothing for a camera at 30 fps with jitter', () => {
    expect(timingNotes({ api: 'rvfc', frames: 8, median_interval_ms: 200, jitter_ms: 3 })).toEqual(['low_frame_rate']);
    expect(timingNotes({ api: 'rvfc', frames: 30, median_interval_ms: 33.33, jitter_ms: 0 })).toEqual([
      'uniform_intervals',
    ]);
    expect(timingNotes({ api: 'rvfc', frames: 30, median_interval_ms: 33.4, jitter_ms: 1.8 })).toEqual([]);
    expect(timingNotes(null)).toEqual([]);
  });
});

describe('assessing the signals together', () => {
  const clean: IntegritySignals = {
    client: 'web',
    camera_label: 'camera2 1, facing front',
    webdriver: false,
    renderer: 'Adreno (TM) 740',
    constraint_probe: { supported: true, control: 'exposure_compensation', responded: true, change: 12, baseline: 1 },
    frame_timing: { api: 'rvfc', frames: 30, median_interval_ms: 33.4, jitter_ms: 1.8 },
  };

  it('raises no flag for a phone camera that answered the probe', () => {
    expect(assessIntegrity(clean).flags).toEqual([]);
  });

  it('raises one flag per sign: virtual camera, webdriver, software renderer, a probe the frames ignored', () => {
    const flagged = assessIntegrity({
      ...clean,
      camera_label: 'OBS Virtual Camera',
      webdriver: true,
      renderer: 'llvmpipe (LLVM 15.0.6, 256 bits)',
      constraint_probe: { supported: true, control: 'zoom', responded: false, change: 0.4, baseline: 0.3 },
    });
    expect(flagged.flags).toEqual(['virtual_camera', 'webdriver', 'software_renderer', 'probe_unresponsive']);
  });

  it('does not hold an unsupported probe, or a missing webdriver (native clients), against the capture', () => {
    const flagged = assessIntegrity({
      ...clean,
      client: 'android',
      webdriver: null,
      constraint_probe: { supported: false, control: null, responded: null, change: null, baseline: null },
    });
    expect(flagged.flags).toEqual([]);
  });

  describe("a native SDK's facts", () => {
    const device = plainDevice;
    const camera = frontCamera;
    const native: IntegritySignals = androidSignals();

    it('raises no flag for a physical front camera on a plain device', () => {
      expect(assessIntegrity(native)).toMatchObject({ flags: [], notes: [] });
    });

    it('raises one flag per fact the SDK says is true: emulator, debugger, rooted, hooking, virtual and external camera', () => {
      const flagged = assessIntegrity({
        ...native,
        native: {
          device: {
            ...device,
            emulator: true,
            debugger_attached: true,
            rooted_or_jailbroken: true,
            hooking_framework: true,
          },
          camera: { ...camera, position: 'external', virtual: true },
        },
      });
      expect(flagged.flags).toEqual([
        'emulator',
        'debugger_attached',
        'rooted_or_jailbroken',
        'hooking_framework',
        'virtual_camera',
        'external_camera',
      ]);
    });

    it('holds nothing the SDK could not tell against the capture', () => {
      const unknown = {
        ...device,
        emulator: null,
        debugger_attached: null,
        rooted_or_jailbroken: null,
        hooking_framework: null,
      };
      expect(assessIntegrity({ ...native, native: { device: unknown, camera: null } }).flags).toEqual([]);
      expect(nativeFlags({ device: unknown, camera: { ...camera, position: 'unknown', virtual: null } })).toEqual([]);
    });

    it("notes the sensor's timing as the page's: perfectly even sensor timestamps are a synthetic source", () => {
      const even = { ...camera, frame_timing: { ...camera.frame_timing, jitter_ms: 0 } };
      expect(assessIntegrity({ ...native, native: { device, camera: even } })).toMatchObject({
        flags: [],
        notes: ['uniform_intervals'],
      });
    });
  });
});
