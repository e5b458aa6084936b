import type { IntegritySignals, NativeCamera, NativeDevice } from './capture-integrity';

/** A plain phone as the Android SDK describes it: no emulator, debugger, root or hooks. Tests override what they judge. */
export const plainDevice: NativeDevice = {
  emulator: false,
  debugger_attached: false,
  rooted_or_jailbroken: false,
  hooking_framework: false,
  app_id: 'com.example.bank',
  os_version: '14',
  sdk_version: '0.1.0',
};

/** A physical front camera at 30 fps with the jitter a real sensor has. */
export const frontCamera = {
  position: 'front',
  device_type: 'full',
  virtual: false,
  frame_timing: { source: 'sensor_timestamp', frames: 30, median_interval_ms: 33.3, jitter_ms: 0.9 },
} satisfies NativeCamera;

/** The integrity body an Android SDK sends: no web fields, the native block with these facts. */
export function androidSignals<Camera extends NativeCamera | null = typeof frontCamera>(
  device: Partial<NativeDevice> = {},
  camera: Camera = frontCamera as Camera,
): IntegritySignals & { native: { device: NativeDevice; camera: Camera } } {
  return {
    client: 'android',
    camera_label: null,
    webdriver: null,
    renderer: null,
    constraint_probe: null,
    frame_timing: null,
    native: { device: { ...plainDevice, ...device }, camera },
  };
}
