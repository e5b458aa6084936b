/**
 * text-recognition v2 appends greedy decoding's heads to v1's softmax. Both versions must read the
 * lines of a real document identically: text, line score and the MRZ readings correction weighs.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeRgbImage } from '../../src/images/decode-image';
import { createInProcessModelRunner, type InProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import { detectText, recognizeLines, textRecognitionModel } from '../../src/tasks';
import { materializeRepository } from '../materializer/materialize-repository';
import { MODELS_DIR, PACKAGES_DIR, REPO_ROOT } from './support/repository-configs';
import { versionRepository } from '../version-repository';

const DOCUMENT = path.join(REPO_ROOT, '.state/testdata/documents/synthetic-td1-id-card-bad-check-digit-001.jpg');
let v1: InProcessModelRunner;
let v2: InProcessModelRunner;

beforeAll(async () => {
  expect(
    (await materializeRepository(MODELS_DIR, PACKAGES_DIR, new Set(['text-detection', textRecognitionModel]))).failures,
  ).toEqual([]);
  v1 = await createInProcessModelRunner({
    repository: versionRepository(MODELS_DIR, textRecognitionModel, 1),
    models: ['text-detection', textRecognitionModel],
  });
  v2 = await createInProcessModelRunner({
    repository: versionRepository(MODELS_DIR, textRecognitionModel, 2),
    models: [textRecognitionModel],
  });
}, 120_000);

afterAll(async () => {
  await v1?.close();
  await v2?.close();
});

test('v2 returns a few values per frame where v1 returns every class', () => {
  expect(v1.config(textRecognitionModel).outputs.map((o) => o.dims)).toEqual([[-1, 6625]]);
  expect(v2.config(textRecognitionModel).outputs.map((o) => o.name)).toEqual([
    'best_class',
    'best_prob',
    'mrz_top2_class',
    'mrz_top2_prob',
  ]);
});

test('v1 and v2 read every line of a real document identically', async () => {
  const image = await decodeRgbImage(await readFile(DOCUMENT));
  const boxes = await detectText(v1, image);
  const [full, heads] = [await recognizeLines(v1, image, boxes), await recognizeLines(v2, image, boxes)];
  expect(full.filter((line) => /[A-Z0-9<]{20,}/.test(line.text)).length).toBeGreaterThanOrEqual(3); // the MRZ rows were read
  expect(heads).toEqual(full);
}, 120_000);
