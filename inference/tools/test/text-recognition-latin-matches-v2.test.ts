/**
 * text-recognition v3 is v2 with its classifier cut to the Latin classes and its convolutions'
 * affine blocks and hard-swishes folded (slice-latin-classes-append-ctc-heads). On the lines of a
 * real document both must read the same text and the same MRZ characters; v3's probabilities are
 * shared among fewer classes, so they may only be a little higher.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeRgbImage } from '../../src/images/decode-image';
import { createInProcessModelRunner, type InProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import { detectText, recognizeLines, textRecognitionModel, type RecognizedLine } from '../../src/tasks';
import { materializeRepository } from '../materializer/materialize-repository';
import { versionRepository } from '../version-repository';
import { MODELS_DIR, PACKAGES_DIR, REPO_ROOT } from './support/repository-configs';

const DOCUMENT = path.join(REPO_ROOT, '.state/testdata/documents/synthetic-td3-passport-clean-001.jpg');
let v2: InProcessModelRunner;
let v3: InProcessModelRunner;

beforeAll(async () => {
  expect(
    (await materializeRepository(MODELS_DIR, PACKAGES_DIR, new Set(['text-detection', textRecognitionModel]))).failures,
  ).toEqual([]);
  v2 = await createInProcessModelRunner({
    repository: versionRepository(MODELS_DIR, textRecognitionModel, 2),
    models: ['text-detection', textRecognitionModel],
  });
  v3 = await createInProcessModelRunner({
    repository: versionRepository(MODELS_DIR, textRecognitionModel, 3),
    models: [textRecognitionModel],
  });
}, 120_000);

afterAll(async () => {
  await v2?.close();
  await v3?.close();
});

const characters = (lines: RecognizedLine[]) => lines.map((l) => ({ text: l.text, mrz: l.mrz.map((c) => c.char) }));

test('v3 reads every line of a real document as v2 does, with probabilities as high or a little higher', async () => {
  const image = await decodeRgbImage(await readFile(DOCUMENT));
  const boxes = await detectText(v2, image);
  const [full, latin] = [await recognizeLines(v2, image, boxes), await recognizeLines(v3, image, boxes)];
  expect(full.filter((line) => /[A-Z0-9<]{30,}/.test(line.text)).length).toBeGreaterThanOrEqual(2); // the MRZ rows were read
  expect(characters(latin)).toEqual(characters(full));
  latin.forEach((line, i) => {
    expect(line.score).toBeGreaterThanOrEqual(full[i].score - 1e-3);
    expect(line.score).toBeLessThanOrEqual(full[i].score + 0.05);
  });
}, 120_000);
