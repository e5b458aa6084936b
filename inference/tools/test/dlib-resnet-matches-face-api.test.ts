/**
 * face-embedding v3 is dlib's ResNet rebuilt as ONNX from face-api's weights manifest. It must
 * compute what face-api's own FaceRecognitionNet computes (within 1e-4 on every value) on real
 * faces cut as the check cuts them and on seeded random input, be deterministic, and hash to the
 * sha256 its config pins.
 */
import './support/node-realm-typed-arrays';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { decodeRgbImage } from '../../src/images/decode-image';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import { convertDlibResnetWeights } from '../converter/dlib-resnet/dlib-resnet-to-onnx';
import { sha256 } from '../../src/repository/file-sha256';
import { packageDir } from '../materializer/package-source';
import { loadFaceApiReference } from './support/face-api-reference';
import { packageVersions, MODELS_DIR, PACKAGES_DIR, REPO_ROOT } from './support/repository-configs';
import { seededUniform } from '../../../scripts/test-support/seeded-random';
import { analyseFaces, dlibChip } from '../../src/tasks';

const TOLERANCE = 1e-4;
const v3 = packageVersions().find((v) => v.config.name === 'face-embedding' && v.config.version === 3)!;
const manifest = path.join(packageDir(PACKAGES_DIR, v3.config.source.package), v3.config.source.path);
const photos = ['faces/grace_hopper_512x512.jpg', 'faces/astronaut.png', 'opencv/face_swapped.jpg'].map((f) =>
  path.join(REPO_ROOT, '.state/assets/debian', f),
);

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  return a.reduce((worst, v, i) => Math.max(worst, Math.abs(v - b[i])), 0);
}

/** dlib chips (150×150, 0.25 padding) of the real photos, cut from FaceMesh landmarks as the check does. */
async function realFaceChips(): Promise<Float32Array[]> {
  const runner = await createInProcessModelRunner({
    repository: MODELS_DIR,
    models: ['face-detection', 'face-landmarks'],
  });
  try {
    const chips: Float32Array[] = [];
    for (const photo of photos) {
      if (!existsSync(photo)) throw new Error(`${photo} missing: run bash scripts/fetch-debian-assets.sh`);
      const image = await decodeRgbImage(await readFile(photo));
      const [face] = await analyseFaces(runner, [image]);
      if (!face) throw new Error(`no face found in ${photo}`);
      chips.push(dlibChip(image, face.landmarks.mesh, 150));
    }
    return chips;
  } finally {
    await runner.close();
  }
}

describe('face-embedding v3 (dlib ResNet built from @vladmandic/face-api weights)', () => {
  let bytes: Uint8Array;
  beforeAll(async () => {
    bytes = await convertDlibResnetWeights(
      manifest,
      `${v3.config.source.package}@${v3.config.source.package_version} ${v3.config.source.path}`,
    );
  }, 60_000);

  test('builds the same bytes twice, and they hash to the sha256 config.json pins', async () => {
    const again = await convertDlibResnetWeights(
      manifest,
      `${v3.config.source.package}@${v3.config.source.package_version} ${v3.config.source.path}`,
    );
    expect(sha256(again)).toBe(sha256(bytes));
    expect(sha256(bytes)).toBe(v3.config.sha256);
  });

  test(`computes face-api's own descriptor within ${TOLERANCE}, on real face chips and random input, in one batch`, async () => {
    const inputs = [...(await realFaceChips()), seededUniform(20240611, 150 * 150 * 3, 0, 255)];
    const session = await ort.InferenceSession.create(bytes);
    const batch = new Float32Array(inputs.length * 150 * 150 * 3);
    inputs.forEach((input, n) => batch.set(input, n * input.length));
    const { embedding } = await session.run({
      image: new ort.Tensor('float32', batch, [inputs.length, 150, 150, 3]),
    });
    const reference = await loadFaceApiReference(packageDir(PACKAGES_DIR, v3.config.source.package));
    const diffs: number[] = [];
    for (const [n, input] of inputs.entries()) {
      diffs.push(
        maxAbsDiff((embedding.data as Float32Array).slice(n * 128, (n + 1) * 128), await reference.describe(input)),
      );
    }
    console.log(
      `face-embedding v3 vs face-api: max abs difference per input (3 faces, random) ${diffs.map((d) => d.toExponential(2)).join(' ')}`,
    );
    expect(Math.max(...diffs)).toBeLessThanOrEqual(TOLERANCE);
  }, 120_000);
});
