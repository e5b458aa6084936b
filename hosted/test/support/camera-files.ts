import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const TESTDATA = path.resolve(__dirname, '../../../.state/testdata');
export const documentImage = (file: string) => path.join(TESTDATA, 'documents', file);
export const faceImage = (file: string) => path.join(TESTDATA, 'faces', file);
export const livenessFrame = (file: string) => path.join(TESTDATA, 'liveness', file);

export type Pose =
  'neutral' | 'left-15' | 'left-30' | 'right-15' | 'right-30' | 'up-15' | 'up-30' | 'down-15' | 'down-30' | 'blink';

/** A camera scene: images held for a number of seconds, in order. */
export type Scene = Array<{ image: string; seconds: number }>;

/**
 * Timing the hosted page uses while recording the challenge (hosted/web/steps/liveness-step.ts):
 * one second facing the camera, then two seconds a step. The scene performs each movement in the
 * middle of its step so a few hundred milliseconds of camera start-up cannot shift it out.
 */
const STEP_POSES: Record<string, Pose[]> = {
  TURN_LEFT: ['left-15', 'left-30', 'left-15'],
  TURN_RIGHT: ['right-15', 'right-30', 'right-15'],
  LOOK_UP: ['up-15', 'up-30', 'up-15'],
  LOOK_DOWN: ['down-15', 'down-30', 'down-15'],
  BLINK: ['neutral', 'blink', 'neutral'],
};

export function challengeScene(identity: string, challenge: string[]): Scene {
  const pose = (name: Pose) => livenessFrame(`${identity}__synthetic-pose-${name}.jpg`);
  const scene: Scene = [{ image: pose('neutral'), seconds: 1.4 }];
  for (const step of challenge) {
    const [a, b, c] = STEP_POSES[step];
    scene.push(
      { image: pose('neutral'), seconds: 0.3 },
      { image: pose(a), seconds: 0.2 },
      { image: pose(b), seconds: 0.9 },
      { image: pose(c), seconds: 0.2 },
      { image: pose('neutral'), seconds: 0.4 },
    );
  }
  scene.push({ image: pose('neutral'), seconds: 3 });
  return scene;
}

/** Makes camera files with ffmpeg in a temporary folder, removed by cleanup(). */
export class CameraFiles {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'bioverify-camera-'));
  private count = 0;

  /**
   * A .y4m for Chromium's fake camera (`--use-file-for-fake-video-capture`). 4:2:0 is required: an
   * MJPEG or 4:4:4 file shows solid green without any error.
   */
  async y4m(scene: Scene, width: number, height: number): Promise<string> {
    return this.encode(scene, width, height, 'y4m', ['-pix_fmt', 'yuv420p']);
  }

  /** A WebM video, as a phone's camera app would record it (the upload fallback of the liveness step). */
  async webm(scene: Scene, width: number, height: number): Promise<string> {
    return this.encode(scene, width, height, 'webm', ['-c:v', 'libvpx', '-b:v', '2M', '-pix_fmt', 'yuv420p']);
  }

  still(image: string, width: number, height: number): Promise<string> {
    return this.y4m([{ image, seconds: 0.2 }], width, height);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async encode(scene: Scene, width: number, height: number, ext: string, codec: string[]): Promise<string> {
    // ffmpeg's concat demuxer skips a missing file without failing: a scene with a missing pose
    // would silently show no movement, so refuse it here.
    const missing = scene.map((s) => s.image).filter((image) => !existsSync(image));
    if (missing.length > 0)
      throw new Error(`camera scene images missing (npm run testdata:faces?): ${[...new Set(missing)].join(', ')}`);
    const list = path.join(this.dir, `scene-${++this.count}.txt`);
    // The concat demuxer ignores the last entry's duration unless the file is listed once more.
    const lines = scene.flatMap((s) => [`file '${s.image}'`, `duration ${s.seconds}`]);
    writeFileSync(list, [...lines, `file '${scene[scene.length - 1].image}'`, ''].join('\n'));
    const out = path.join(this.dir, `scene-${this.count}.${ext}`);
    const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=0x5a5a5a,fps=10`;
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-vf',
      fit,
      ...codec,
      out,
    ]);
    return out;
  }
}
