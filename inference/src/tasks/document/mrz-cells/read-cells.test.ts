import path from 'node:path';
import { createInProcessModelRunner } from '../../../runtime/in-process-model-runner';
import type { ModelRunner } from '../../../runtime/model-runner';
import { TD1_SPECIMEN, TD3_SPECIMEN } from '../mrz/icao-specimens';
import { MRZ_LAYOUTS } from '../mrz/mrz-layouts';
import { lineText } from '../mrz/mrz-reading';
import { readMrz } from '../mrz/read-mrz';
import { readCells } from './read-cells';
import { renderedRow } from './rendered-row';

let runner: ModelRunner & { close(): Promise<void> };

beforeAll(async () => {
  runner = await createInProcessModelRunner({
    repository: path.resolve(__dirname, '../../../../../models'),
    models: ['mrz-cells'],
    intraOpThreads: 1,
  });
});
afterAll(() => runner.close());

const ROWS = [...TD3_SPECIMEN, ...TD1_SPECIMEN];
const NOW = new Date('2026-11-01T00:00:00Z');

describe('reading OCR-B rows with the cell classifier (the real models/mrz-cells)', () => {
  it('reads every specimen row exactly from a sharp, straight render, in one batch', async () => {
    const rendered = await Promise.all(ROWS.map((text) => renderedRow(text)));
    // One image per row here, so one call per row; the reader batches all rows of one image.
    const reads = await Promise.all(
      rendered.map((r, i) => readCells(runner, r.image, [{ box: r.box, count: ROWS[i].length }])),
    );
    expect(reads.map(([r]) => (r ? lineText(r) : null))).toEqual(ROWS);
  });

  it.each([
    { format: 'TD3' as const, rows: TD3_SPECIMEN },
    { format: 'TD1' as const, rows: TD1_SPECIMEN },
  ])(
    'reads a $format zone turned 2 degrees and blurred well enough for correction to restore it',
    async ({ format, rows }) => {
      const rendered = await Promise.all(rows.map((text) => renderedRow(text, { degrees: 2, blur: 1 })));
      const reads = await Promise.all(
        rendered.map((r, i) => readCells(runner, r.image, [{ box: r.box, count: rows[i].length }])),
      );
      const read = readMrz(
        MRZ_LAYOUTS[format],
        reads.map(([r]) => [r!]),
        NOW,
      );
      expect(read?.corrected.lines).toEqual(rows);
      expect(read?.parsed.fields.check_digits_valid).toBe(true);
    },
  );

  it('gives each character a probability and a runner-up, as the CTC reader does', async () => {
    const row = await renderedRow(TD3_SPECIMEN[1]);
    const [reading] = await readCells(runner, row.image, [{ box: row.box, count: 44 }]);
    for (const c of reading!) {
      expect(c.prob).toBeGreaterThan(0.5);
      expect(c.alternative!.prob).toBeLessThan(c.prob);
      expect(c.alternative!.char).not.toBe(c.char);
    }
  });

  it('counts the cells itself when the length is not given', async () => {
    const row = await renderedRow(TD3_SPECIMEN[0]);
    const [reading] = await readCells(runner, row.image, [{ box: row.box }]);
    expect(lineText(reading!)).toBe(TD3_SPECIMEN[0]);
  });
});
