/**
 * Parity proves the conversion, not the configs: a wrong scale or mean in a preprocessing block
 * would feed both runtimes the same wrong input. These checks run the materialized models on a real
 * photo prepared exactly as config.json declares, and on a flat grey image with no face.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { materializeRepository } from '../materializer/materialize-repository';
import { type Crop, preprocessImage } from './support/preprocess-image';
import { committedVersions, MODELS_DIR, PACKAGES_DIR, REPO_ROOT } from './support/repository-configs';

const PHOTO = path.join(REPO_ROOT, '.state/assets/debian/faces/grace_hopper_512x512.jpg');
const FACE_BOX: Crop = { left: 150, top: 110, width: 230, height: 230 };
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

async function run(model: string, source: 'photo' | 'grey', crop?: Crop) {
  const { dir, config } = committedVersions().find((v) => v.config.name === model && v.config.version === 1)!;
  const pre = config.preprocessing!;
  const grey = (128 * pre.scale - pre.mean[0]) / pre.std[0];
  const input =
    source === 'photo'
      ? await preprocessImage(PHOTO, pre, crop)
      : new Float32Array(pre.width * pre.height * 3).fill(grey);
  const session = await ort.InferenceSession.create(path.join(dir, config.file));
  const out = await session.run({ image: new ort.Tensor('float32', input, [1, pre.height, pre.width, 3]) });
  await session.release();
  return (name: string) => Array.from(out[name].data as Float32Array);
}

beforeAll(async () => {
  if (!existsSync(PHOTO)) throw new Error(`${PHOTO} missing: run bash scripts/fetch-debian-assets.sh`);
  expect(
    (await materializeRepository(MODELS_DIR, PACKAGES_DIR, new Set(['face-detection', 'face-landmarks']))).failures,
  ).toEqual([]);
});

test('face-detection finds the face in a portrait photo and nothing in a grey image', async () => {
  const best = async (source: 'photo' | 'grey') => {
    const out = await run('face-detection', source);
    return sigmoid(Math.max(...out('scores_stride16'), ...out('scores_stride32')));
  };
  expect(await best('photo')).toBeGreaterThan(0.8);
  expect(await best('grey')).toBeLessThan(0.2);
});

test('face-landmarks is confident on a face crop and not on a grey image', async () => {
  expect((await run('face-landmarks', 'photo', FACE_BOX))('face_score')[0]).toBeGreaterThan(0.9);
  expect((await run('face-landmarks', 'grey'))('face_score')[0]).toBeLessThan(0.1);
});
