/**
 * How many MRZ rows the recogniser reads, on the real models in-process over the project's
 * synthetic documents: a zone whose first read settles it is not read again across its full width,
 * and one whose check digits fail is. Every field of all 180 documents is held by
 * `npm run eval -- --task document`; this file holds the number of reads.
 */
// onnxruntime's instanceof checks need Node's typed arrays inside jest's vm context.
import '../../../tools/test/support/node-realm-typed-arrays';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { documentTestdataDir, generateDocumentTestdata } from '../../../tools/testdata/documents/generate-documents';
import type { DocumentLabels } from '../../../tools/testdata/documents/document-labels';
import { createInProcessModelRunner, type InProcessModelRunner } from '../../runtime/in-process-model-runner';
import type { ModelRunner } from '../../runtime/model-runner';
import { decodeRgbImage } from '../../images/decode-image';
import { textRecognitionModel } from './ocr/text-recognition';
import { readMachineZone } from './read-machine-zone';

let runner: InProcessModelRunner;
let labels: DocumentLabels;

beforeAll(async () => {
  labels = await generateDocumentTestdata();
  runner = await createInProcessModelRunner({
    repository: path.join(__dirname, '../../../../models'),
    models: ['text-detection', 'text-recognition'],
  });
}, 600_000);

afterAll(async () => {
  await runner?.close();
});

/** The zone read of one document, with the recogniser's rows in each call, in order. */
async function readCounting(variant: string, format: string) {
  const label = labels.documents.find((d) => d.variant === variant && d.format === format)!;
  const calls: number[] = [];
  const counting: ModelRunner = {
    config: (model) => runner.config(model),
    infer: async (model, inputs, options) => {
      if (model === textRecognitionModel) calls.push(Object.values(inputs)[0].dims[0]);
      return runner.infer(model, inputs, options);
    },
  };
  const image = await decodeRgbImage(await readFile(path.join(documentTestdataDir, label.file)), {
    what: 'document image',
  });
  const page = await readMachineZone(counting, image, new Date(`${labels.reference_date}T12:00:00Z`));
  return { label, page, calls };
}

describe('reading the machine-readable zone', () => {
  it('reads the rows of a clean passport once, when that read settles every field', async () => {
    const { label, page, calls } = await readCounting('clean', 'TD3');
    expect(page.read?.parsed.fields).toMatchObject({
      document_number: label.expected.fields!.document_number,
      birth_date: label.expected.fields!.birth_date,
      check_digits_valid: true,
    });
    expect(calls).toEqual([calls[0]]);
  }, 120_000);

  it('reads the zone again across its full width when a check digit fails', async () => {
    const { page, calls } = await readCounting('bad-check-digit', 'TD3');
    expect(page.read?.parsed.fields.check_digits_valid).toBe(false);
    expect(calls.length).toBeGreaterThan(1);
  }, 120_000);
});
