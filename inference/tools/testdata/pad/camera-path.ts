/**
 * The one camera every sample goes through, live or attack: white balance and exposure error,
 * lens blur, a resize to the sensor's output width, sensor noise and JPEG. The same ranges for
 * every species, so that no detector can tell live from attack by size, sharpness or compression.
 */
import { between } from '../../../../scripts/test-support/seeded-random';
import { blur, mapPixels, resize, sharpOf, type Raw } from './raw-image';

/** The size every scene is rendered at before the camera resizes it to its output width. */
export const sceneSize = { width: 450, height: 580 };

export interface CameraParams {
  width: number;
  blur: number;
  noise: number;
  jpeg_quality: number;
  white_balance: string;
  exposure: number;
}

export function drawCamera(random: () => number): CameraParams {
  return {
    width: Math.round(between(random, 340, 450)),
    blur: +between(random, 0.4, 1.0).toFixed(2),
    noise: +between(random, 1.5, 4.5).toFixed(2),
    jpeg_quality: Math.round(between(random, 70, 90)),
    white_balance: [between(random, 0.94, 1.06), 1, between(random, 0.94, 1.06)].map((v) => v.toFixed(3)).join(','),
    exposure: +between(random, 0.9, 1.1).toFixed(3),
  };
}

export async function throughCamera(scene: Raw, camera: CameraParams, random: () => number): Promise<Buffer> {
  const balance = camera.white_balance.split(',').map(Number);
  const lensed = await blur(scene, camera.blur * Math.max(1, scene.width / camera.width));
  const sized = await resize(lensed, camera.width, Math.round((scene.height * camera.width) / scene.width));
  const noisy = mapPixels(sized, (v, _x, _y, c) => v * balance[c] * camera.exposure + gaussian(random) * camera.noise);
  return sharpOf(noisy).jpeg({ quality: camera.jpeg_quality, chromaSubsampling: '4:2:0' }).toBuffer();
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
