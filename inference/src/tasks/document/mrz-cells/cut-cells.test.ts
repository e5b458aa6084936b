import { CELL_HEIGHT, CELL_WIDTH, cutCells, type RowCells } from './cut-cells';
import { renderedRow } from './rendered-row';

const ROW = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const SIZE = CELL_WIDTH * CELL_HEIGHT;

/** The cell that differs most between two cuts of rows that differ in one character. */
function mostChangedCell(a: RowCells, b: RowCells): number {
  let best = -1;
  let bestDiff = -1;
  for (let k = 0; k < a.count; k++) {
    let diff = 0;
    for (let i = k * SIZE; i < (k + 1) * SIZE; i++) diff += Math.abs(a.pixels[i] - b.pixels[i]);
    if (diff > bestDiff) [best, bestDiff] = [k, diff];
  }
  return best;
}

const withChar = (text: string, at: number, char: string): string => text.slice(0, at) + char + text.slice(at + 1);

describe.each([
  { name: 'a straight, sharp row', degrees: 0, blur: 0 },
  { name: 'a row turned 2 degrees and blurred', degrees: 2, blur: 1 },
])('cutting $name of OCR-B into cells', ({ degrees, blur }) => {
  it('finds as many cells as the row has characters when the length is not given', async () => {
    const row = await renderedRow(ROW, { degrees, blur });
    expect(cutCells(row.image, row.box)?.count).toBe(ROW.length);
  });

  it.each([0, 7, 22, 43])('puts character %i in its own cell, at its index', async (at) => {
    const base = await renderedRow(ROW, { degrees, blur });
    const changed = await renderedRow(withChar(ROW, at, ROW[at] === 'W' ? 'I' : 'W'), { degrees, blur });
    const a = cutCells(base.image, base.box, ROW.length)!;
    const b = cutCells(changed.image, changed.box, ROW.length)!;
    expect(mostChangedCell(a, b)).toBe(at);
  });

  it('gives cells of ink on paper: a filler cell is mostly light, a W cell much darker', async () => {
    const row = await renderedRow('WWWW<<<<', { degrees, blur });
    const cells = cutCells(row.image, row.box, 8)!;
    const ink = (k: number): number =>
      cells.pixels.subarray(k * SIZE, (k + 1) * SIZE).reduce((s, v) => s + v, 0) / SIZE;
    expect(ink(5)).toBeLessThan(0.3);
    expect(ink(1)).toBeGreaterThan(1.3 * ink(5));
  });
});
