import { execFileSync } from 'node:child_process';
import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium, installed by scripts/setup.sh (no browser download). */
function chromiumPath(): string {
  return (
    process.env.CHROMIUM_PATH ??
    execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser']).toString().trim()
  );
}

export interface CameraOptions {
  /** A .y4m the fake camera plays in a loop; without it Chromium's synthetic pattern is used. */
  file?: string;
  /** Refuse camera permission, as an applicant tapping "Block" would. */
  denied?: boolean;
}

/** One headless Chromium per camera scene: the fake camera's file is fixed at launch. */
export function launchBrowser(camera: CameraOptions = {}): Promise<Browser> {
  const args = [
    '--use-fake-device-for-media-stream',
    '--no-sandbox',
    '--disable-dev-shm-usage',
    '--autoplay-policy=no-user-gesture-required',
  ];
  if (!camera.denied) args.push('--use-fake-ui-for-media-stream');
  if (camera.file) args.push(`--use-file-for-fake-video-capture=${camera.file}`);
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args });
}

export const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
} as const;
export const DESKTOP = { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 } as const;
