import type { ModelConfig, ModelRunner } from '../../../runtime/model-runner';
import { TD3_SPECIMEN } from '../mrz/icao-specimens';
import { MRZ_LAYOUTS } from '../mrz/mrz-layouts';
import { readingOf, type LineReading } from '../mrz/mrz-reading';
import { readMrz } from '../mrz/read-mrz';
import { cellsFirstReadFloor, cellsSettle, mergeWindowReads, windowsToReread } from './read-zone-by-cells';

const NOW = new Date('2026-11-01T00:00:00Z');
const FLOOR = 0.9;

/** A runner that serves only configs: which models it has and their thresholds. */
function stubRunner(served: Record<string, Record<string, number>>): ModelRunner {
  return {
    infer: () => Promise.reject(new Error('no model runs in this test')),
    config: (model: string): ModelConfig => {
      if (!(model in served)) throw new Error(`the inference service serves no model "${model}"`);
      return { thresholds: served[model] } as unknown as ModelConfig;
    },
  };
}

function settles(edit: (rows: LineReading[]) => void = () => undefined): boolean {
  const rows = TD3_SPECIMEN.map((l) => readingOf(l, 0.97));
  edit(rows);
  return cellsSettle(
    readMrz(
      MRZ_LAYOUTS.TD3,
      rows.map((r) => [r]),
      NOW,
    ),
    rows,
    FLOOR,
  );
}

describe('the cells read first only where models/mrz-cells says so', () => {
  it('reads by cells with the configured floor when the model is served and first_read is 1', () => {
    expect(cellsFirstReadFloor(stubRunner({ 'mrz-cells': { first_read: 1, settle_floor: 0.9 } }))).toBe(0.9);
  });

  it('leaves the recogniser to read alone when first_read is 0', () => {
    expect(cellsFirstReadFloor(stubRunner({ 'mrz-cells': { first_read: 0, settle_floor: 0.9 } }))).toBeNull();
  });

  it('leaves the recogniser to read alone when the runner does not serve the model', () => {
    expect(cellsFirstReadFloor(stubRunner({ 'text-recognition': {} }))).toBeNull();
  });
});

describe('a zone read by cells stands without the recogniser only when it is settled', () => {
  it('stands when every check digit holds uncorrected and every character is sure', () => {
    expect(settles()).toBe(true);
  });

  it('falls back when a name letter is under the floor, since names carry no check digit', () => {
    expect(
      settles((rows) => {
        rows[0][5] = { char: 'E', prob: 0.85, alternative: { char: 'F', prob: 0.1 } };
      }),
    ).toBe(false);
  });

  it('falls back when the issuing state, which no check digit covers, is under the floor', () => {
    expect(
      settles((rows) => {
        rows[0][3] = { char: 'T', prob: 0.8 };
      }),
    ).toBe(false);
  });

  it('stands when a digit the check digits guard is only fairly sure (0 or O)', () => {
    expect(
      settles((rows) => {
        rows[1][15] = { char: '0', prob: 0.7, alternative: { char: 'O', prob: 0.3 } };
      }),
    ).toBe(true);
  });

  it('falls back when a guarded character is less likely than not', () => {
    expect(
      settles((rows) => {
        rows[1][15] = { char: '0', prob: 0.45, alternative: { char: 'O', prob: 0.4 } };
      }),
    ).toBe(false);
  });

  it('falls back when correction had to change a character (O read in a date)', () => {
    expect(
      settles((rows) => {
        rows[1][15] = { char: 'O', prob: 0.99 };
      }),
    ).toBe(false);
  });

  it('falls back when a check digit fails', () => {
    expect(
      settles((rows) => {
        rows[1][9] = { char: '5', prob: 0.99 };
      }),
    ).toBe(false);
  });

  it('falls back when a row is not of the layout’s length', () => {
    expect(
      settles((rows) => {
        rows[0].pop();
      }),
    ).toBe(false);
  });
});

describe('a zone the cells nearly settle has only its unsure positions read again, on short windows', () => {
  const specimen = () => TD3_SPECIMEN.map((l) => readingOf(l, 0.97));
  const zoneOf = (rows: LineReading[]) =>
    readMrz(
      MRZ_LAYOUTS.TD3,
      rows.map((r) => [r]),
      NOW,
    );

  it('asks for a window of five cells each side of a name letter under the floor', () => {
    const rows = specimen();
    rows[0][7] = { char: 'R', prob: 0.7, alternative: { char: 'B', prob: 0.2 } };
    expect(windowsToReread(zoneOf(rows), rows, FLOOR)?.windows).toEqual([{ line: 0, start: 2, end: 13 }]);
  });

  it('joins the windows of nearby positions and asks for a corrected one too', () => {
    const rows = specimen();
    rows[1][15] = { char: 'O', prob: 0.99 };
    rows[1][18] = { char: rows[1][18].char, prob: 0.4, alternative: { char: 'B', prob: 0.3 } };
    expect(windowsToReread(zoneOf(rows), rows, FLOOR)?.windows).toEqual([{ line: 1, start: 10, end: 24 }]);
  });

  it('asks for nothing when a check digit fails: the full recogniser path reads that zone', () => {
    const rows = specimen();
    rows[1][9] = { char: '5', prob: 0.99 };
    expect(windowsToReread(zoneOf(rows), rows, FLOOR)).toBeNull();
  });

  it('asks for nothing when more than six positions are unsure', () => {
    const rows = specimen();
    for (const i of [5, 6, 7, 8, 9, 10, 11]) rows[0][i] = { ...rows[0][i], prob: 0.7 };
    expect(windowsToReread(zoneOf(rows), rows, FLOOR)).toBeNull();
  });

  it('takes the window’s more confident letter, and the merged zone then settles', () => {
    const rows = specimen();
    const truth = rows[0][7].char;
    rows[0][7] = { char: 'B', prob: 0.7, alternative: { char: truth, prob: 0.2 } };
    const plan = windowsToReread(zoneOf(rows), rows, FLOOR)!;
    const window = readingOf(TD3_SPECIMEN[0].slice(2, 13), 0.98);
    const merged = mergeWindowReads(rows, plan, [window])!;
    expect(merged[0][7]).toMatchObject({ char: truth, prob: 0.98, alternative: { char: 'B' } });
    expect(cellsSettle(zoneOf(merged), merged, FLOOR)).toBe(true);
  });

  it('aligns a window read that gained or lost a glyph at its ends, as a crop by the box’s fractions does', () => {
    const rows = specimen();
    rows[0][7] = { char: 'B', prob: 0.7 };
    const plan = windowsToReread(zoneOf(rows), rows, FLOOR)!;
    const cutShort = readingOf(TD3_SPECIMEN[0].slice(2, 12), 0.98);
    const overlong = readingOf(TD3_SPECIMEN[0].slice(1, 14), 0.98);
    expect(mergeWindowReads(rows, plan, [cutShort])![0][7].char).toBe('I');
    expect(mergeWindowReads(rows, plan, [overlong])![0][7].char).toBe('I');
  });

  it('refuses a window read that disagrees with a position the cells read surely', () => {
    const rows = specimen();
    rows[0][7] = { ...rows[0][7], prob: 0.7 };
    const plan = windowsToReread(zoneOf(rows), rows, FLOOR)!;
    const misread = readingOf(TD3_SPECIMEN[0].slice(2, 13).replace('K', 'X'), 0.98);
    expect(mergeWindowReads(rows, plan, [misread])).toBeNull();
  });

  it('keeps a sure cell where the window reads its OCR-B look-alike (0 for O), rather than refusing the window', () => {
    const rows = specimen();
    rows[0][7] = { char: 'B', prob: 0.7 };
    const plan = windowsToReread(zoneOf(rows), rows, FLOOR)!;
    const zeroForO = readingOf(TD3_SPECIMEN[0].slice(2, 13).replace('O', '0'), 0.98);
    const merged = mergeWindowReads(rows, plan, [zeroForO])!;
    expect(merged[0][4].char).toBe('O');
    expect(merged[0][7].char).toBe('I');
  });

  it('refuses a window read that covers too little of its cells to be placed', () => {
    const rows = specimen();
    rows[0][7] = { ...rows[0][7], prob: 0.7 };
    const plan = windowsToReread(zoneOf(rows), rows, FLOOR)!;
    expect(mergeWindowReads(rows, plan, [readingOf(TD3_SPECIMEN[0].slice(5, 10), 0.98)])).toBeNull();
  });
});
