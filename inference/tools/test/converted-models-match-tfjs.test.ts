/**
 * Parity: every model the converter produces must compute what the original TFJS graph model
 * computes under @tensorflow/tfjs (CPU backend), within 1e-3 max abs difference on every output,
 * on seeded random inputs in the model's input range and on a real face photo preprocessed as
 * its config declares. Converted bytes must also hash to the sha256 config.json pins.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { convertTfjsModelFile } from '../converter/tfjs-to-onnx';
import { sha256 } from '../../src/repository/file-sha256';
import { packageDir } from '../materializer/package-source';
import { type Crop, preprocessImage, valueRange } from './support/preprocess-image';
import { convertedVersions, PACKAGES_DIR, REPO_ROOT } from './support/repository-configs';
import { seededUniform } from '../../../scripts/test-support/seeded-random';
import { loadTfjsReference } from './support/tfjs-reference';

const TOLERANCE = 1e-3;
const FACE_PHOTO = path.join(REPO_ROOT, '.state/assets/debian/faces/grace_hopper_512x512.jpg');
/** Where the face is in that photo (chosen by eye); detectors get the whole photo instead. */
const FACE_BOX: Crop = { left: 150, top: 110, width: 230, height: 230 };
const report: string[] = [];

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`lengths differ: ${a.length} vs ${b.length}`);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

afterAll(() => console.log(`max abs difference ONNX vs TFJS (tolerance ${TOLERANCE}):\n${report.join('\n')}`));

describe.each(convertedVersions())('$label', ({ label, config }) => {
  let bytes: Uint8Array;
  const modelJson = () => path.join(packageDir(PACKAGES_DIR, config.source.package), config.source.path);

  beforeAll(async () => {
    bytes = await convertTfjsModelFile({
      modelJsonPath: modelJson(),
      tensorNames: config.source.tensor_names,
      provenance: `${config.source.package}@${config.source.package_version} ${config.source.path}`,
    });
  });

  test('converts to exactly the bytes whose sha256 config.json pins', () => {
    expect(sha256(bytes)).toBe(config.sha256);
  });

  test(`computes what the TFJS model computes, within ${TOLERANCE}`, async () => {
    if (!existsSync(FACE_PHOTO)) throw new Error(`${FACE_PHOTO} missing: run bash scripts/fetch-debian-assets.sh`);
    const session = await ort.InferenceSession.create(bytes);
    const reference = await loadTfjsReference(modelJson(), config.source.tensor_names);
    const pre = config.preprocessing!;
    const rowDims = [1, pre.height, pre.width, 3];
    const [low, high] = valueRange(pre);
    const random = seededUniform(20240611, pre.height * pre.width * 3, low, high);
    const face = await preprocessImage(FACE_PHOTO, pre, config.task === 'face-detection' ? undefined : FACE_BOX);

    // ONNX sees both rows as one batch of 2, as the dynamic batcher would send them; TFJS runs
    // them one at a time (some TFJS graphs have a batch of 1 baked into their reshapes).
    const batch = new Float32Array(random.length * 2);
    batch.set(random);
    batch.set(face, random.length);
    const onnx = await session.run({
      [config.inputs[0].name]: new ort.Tensor('float32', batch, [2, ...rowDims.slice(1)]),
    });
    const tfRandom = reference.run(random, rowDims);
    const tfFace = reference.run(face, rowDims);

    expect([...reference.outputs.keys()].sort()).toEqual(config.outputs.map((o) => o.name).sort());
    for (const output of config.outputs) {
      const rows = onnx[output.name].data as Float32Array;
      const half = rows.length / 2;
      const randomDiff = maxAbsDiff(rows.subarray(0, half), tfRandom[output.name]);
      const faceDiff = maxAbsDiff(rows.subarray(half), tfFace[output.name]);
      report.push(
        `${label.padEnd(20)} ${output.name.padEnd(16)} random ${randomDiff.toExponential(2)}  face ${faceDiff.toExponential(2)}`,
      );
      expect(randomDiff).toBeLessThanOrEqual(TOLERANCE);
      expect(faceDiff).toBeLessThanOrEqual(TOLERANCE);
    }
  });
});
