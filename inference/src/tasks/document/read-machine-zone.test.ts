/**
 * The band finder: a declared passport's MRZ looked for on a reduced page first, the full page only
 * where that read does not settle the zone. Real models in-process (text detection, the recogniser, the cells) over
 * the project's synthetic documents; each runner records the detector's input shapes.
 */
// onnxruntime's instanceof checks need Node's typed arrays inside jest's vm context.
import '../../../tools/test/support/node-realm-typed-arrays';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeRgbImage } from '../../images/decode-image';
import type { RgbImage } from '../../images/rgb-image';
import { createInProcessModelRunner, type InProcessModelRunner } from '../../runtime/in-process-model-runner';
import type { ModelConfig, ModelRunner } from '../../runtime/model-runner';
import { documentTestdataDir, generateDocumentTestdata } from '../../../tools/testdata/documents/generate-documents';
import type { DocumentLabels } from '../../../tools/testdata/documents/document-labels';
import { bandLongSide, textDetectionModel } from './ocr/text-detection';
import { readMachineZone } from './read-machine-zone';
import type { DocumentType } from '../task-contracts';

const BAND = 640;
let served: InProcessModelRunner;
let labels: DocumentLabels;
let now: Date;

beforeAll(async () => {
  labels = await generateDocumentTestdata();
  now = new Date(`${labels.reference_date}T12:00:00Z`);
  served = await createInProcessModelRunner({
    repository: path.resolve(__dirname, '../../../../models'),
    models: ['text-detection', 'text-recognition', 'mrz-cells'],
    intraOpThreads: 1,
  });
}, 120_000);
afterAll(() => served.close());

/** The served models with the band finder at `side` (0: off), recording each detection's [height, width]. */
function runnerWithBand(side: number, detections: number[][]): ModelRunner {
  return {
    config: (name: string): ModelConfig => {
      const config = served.config(name);
      return name === textDetectionModel
        ? { ...config, thresholds: { ...config.thresholds, band_long_side: side } }
        : config;
    },
    infer: (name, inputs, options) => {
      if (name === textDetectionModel) detections.push(Object.values(inputs)[0].dims.slice(2));
      return served.infer(name, inputs, options);
    },
  };
}

async function documentImage(file: string): Promise<RgbImage> {
  if (!labels.documents.some((d) => d.file === file)) throw new Error(`no ${file} in the test data`);
  return decodeRgbImage(await readFile(path.join(documentTestdataDir, file)), { what: 'document image' });
}

type Declared = DocumentType | 'undeclared';

/**
 * Reads one document, declared as `declared`, with the band finder off and at BAND: both answers
 * and both detectors' shapes.
 */
async function readBothWays(file: string, declared: Declared) {
  const image = await documentImage(file);
  const full: number[][] = [];
  const band: number[][] = [];
  const type = declared === 'undeclared' ? undefined : declared;
  const withoutBand = await readMachineZone(runnerWithBand(0, full), image, now, type);
  const withBand = await readMachineZone(runnerWithBand(BAND, band), image, now, type);
  return { full, band, withoutBand, withBand };
}
const reads = new Map<string, ReturnType<typeof readBothWays>>();
/** Each document is read once per declaration; the tests judge the same reads. */
const readOnce = (file: string, declared: Declared = 'passport'): ReturnType<typeof readBothWays> => {
  const key = `${file} as ${declared}`;
  if (!reads.has(key)) reads.set(key, readBothWays(file, declared));
  return reads.get(key)!;
};

// Clean documents whose zone the cells settle from the page reduced to BAND (a sweep of all 180;
// the int8 detector settles 39 of the 60 clean passports there as the float one did, not all the
// same ones: clean-026 only with the float one, clean-003 with both).
const SETTLED: Record<string, string> = {
  TD3: 'synthetic-td3-passport-clean-003.jpg',
  TD1: 'synthetic-td1-id-card-clean-001.jpg',
  TD2: 'synthetic-td2-residence-permit-clean-001.jpg',
};

describe('the band finder is switched by models/text-detection', () => {
  const stub = (thresholds: Record<string, number>): ModelRunner => ({
    infer: () => Promise.reject(new Error('no model runs here')),
    config: () => ({ thresholds }) as unknown as ModelConfig,
  });

  it('looks on a reduced page of the configured long side when band_long_side is set', () => {
    expect(bandLongSide(stub({ binarize: 0.3, band_long_side: 640 }))).toBe(640);
  });

  it('detects on the whole page only when band_long_side is 0 or absent', () => {
    expect(bandLongSide(stub({ band_long_side: 0 }))).toBeNull();
    expect(bandLongSide(stub({ binarize: 0.3 }))).toBeNull();
  });
});

describe('the served text detector', () => {
  // v2 is v1 in static int8: as v1 on the 180 documents it was chosen on, but it misread a name
  // on the held-out set (models/README.md, "Static int8 text detection").
  it('is the float PP-OCRv4 detector (v1), although the int8 v2 is a higher version', () => {
    expect(served.config(textDetectionModel).version).toBe(1);
  });

  // 480 px: detection at 0.32x the full page's CPU, and the cells settle as many clean passports
  // from it (benchmarks/README.md, "The band finder"); the tests below use BAND, 640, to judge
  // the mechanism apart from the served side.
  it("looks for a declared passport's zone on the page reduced to 480 px first", () => {
    expect(bandLongSide(served)).toBe(480);
  });
});

describe('reading the MRZ from a reduced page first (real models)', () => {
  it('settles a clean passport zone with one detection on the reduced page, reading what the full page reads', async () => {
    const { full, band, withoutBand, withBand } = await readOnce(SETTLED.TD3);
    expect(full).toHaveLength(1);
    expect(Math.max(...full[0])).toBeGreaterThan(BAND);
    expect(band).toHaveLength(1);
    expect(Math.max(...band[0])).toBeLessThanOrEqual(BAND);
    expect(withBand.read?.parsed.fields.check_digits_valid).toBe(true);
    expect(withBand.read?.corrected.lines).toEqual(withoutBand.read?.corrected.lines);
  }, 120_000);

  it('cuts the zone in source pixels, so its first row lies where the full page finds it', async () => {
    const { withoutBand, withBand } = await readOnce(SETTLED.TD3);
    const [a, b] = [withoutBand.firstRow!, withBand.firstRow!];
    expect(Math.abs(a.cy - b.cy)).toBeLessThan(0.5 * a.height);
    expect(Math.abs(a.cx - b.cx)).toBeLessThan(a.height);
    expect(Math.abs(a.width - b.width) / a.width).toBeLessThan(0.05);
  }, 120_000);

  it.each(['TD1', 'TD2'])(
    'reads a %s card declared as a passport from the full page too, since its address is in type the reduced page loses',
    async (format) => {
      const { full, band, withoutBand, withBand } = await readOnce(SETTLED[format]);
      expect(band).toHaveLength(2);
      expect(Math.max(...band[0])).toBeLessThanOrEqual(BAND);
      expect(band[1]).toEqual(full[0]);
      expect(withBand.boxes).toEqual(withoutBand.boxes);
      expect(withBand.read?.corrected.lines).toEqual(withoutBand.read?.corrected.lines);
    },
    120_000,
  );

  it.each([
    ['declared as an identity card', 'id_card' as const],
    ['whose type was not declared', 'undeclared' as const],
  ])(
    'reads a card %s from the full page alone, never the reduced one',
    async (_, declared) => {
      const { full, band, withoutBand, withBand } = await readOnce(SETTLED.TD1, declared);
      expect(band).toEqual(full);
      expect(full).toHaveLength(1);
      expect(Math.max(...full[0])).toBeGreaterThan(BAND);
      expect(withBand.read?.corrected.lines).toEqual(withoutBand.read?.corrected.lines);
    },
    120_000,
  );

  it('reads a passport whose type was not declared from the full page alone', async () => {
    const { full, band, withBand } = await readOnce(SETTLED.TD3, 'undeclared');
    expect(band).toEqual(full);
    expect(Math.max(...band[0])).toBeGreaterThan(BAND);
    expect(withBand.read?.parsed.fields.check_digits_valid).toBe(true);
  }, 120_000);

  it('falls back to the full page, read as without the band finder, when the reduced read does not settle a blurred zone', async () => {
    const { full, band, withoutBand, withBand } = await readOnce('synthetic-td3-passport-blurred-mrz-001.jpg');
    expect(band).toHaveLength(2);
    expect(Math.max(...band[0])).toBeLessThanOrEqual(BAND);
    expect(band[1]).toEqual(full[0]);
    expect(withBand.read?.corrected.lines).toEqual(withoutBand.read?.corrected.lines);
    expect(withBand.lines.map((l) => l.text)).toEqual(withoutBand.lines.map((l) => l.text));
  }, 120_000);
});
