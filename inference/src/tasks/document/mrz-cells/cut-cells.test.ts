import { BOX_OVER_CAP, CELL_HEIGHT, CELL_WIDTH, cutCells, refitToInk, type RowCells } from './cut-cells';
import type { TextBox } from '../ocr/text-box';
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

describe.each([
  { name: 'a straight row', degrees: 0 },
  { name: 'a row turned 2 degrees', degrees: 2 },
])('re-fitting a loose box to the ink of $name', ({ degrees }) => {
  /** The box a reduced page gives: taller, and off the row's centre across it. */
  const loose = (box: TextBox, across: number): TextBox => ({
    ...box,
    cx: box.cx - Math.sin(box.angle) * across,
    cy: box.cy + Math.cos(box.angle) * across,
    height: box.height * 1.4,
  });

  it('makes the box as tall as its ink band times BOX_OVER_CAP, whatever height it came with', async () => {
    const row = await renderedRow(ROW, { degrees });
    const tight = refitToInk(row.image, row.box);
    const refitted = refitToInk(row.image, loose(row.box, 0.15 * row.box.height));
    expect(Math.abs(refitted.height - tight.height) / tight.height).toBeLessThan(0.05);
    // The capital height of an 18 px pitch is about 18 px: the box is 1.4 times that.
    expect(refitted.height / BOX_OVER_CAP).toBeGreaterThan(14);
    expect(refitted.height / BOX_OVER_CAP).toBeLessThan(22);
  });

  it('centres the box across on the ink, keeping its direction and length', async () => {
    const row = await renderedRow(ROW, { degrees });
    const tight = refitToInk(row.image, row.box);
    const refitted = refitToInk(row.image, loose(row.box, 0.15 * row.box.height));
    expect(Math.hypot(refitted.cx - tight.cx, refitted.cy - tight.cy)).toBeLessThan(1.5);
    expect(refitted.angle).toBe(row.box.angle);
    expect(refitted.width).toBe(row.box.width);
  });

  it('cuts the same cells from the re-fitted loose box as from the re-fitted tight one', async () => {
    const row = await renderedRow(ROW, { degrees });
    const a = cutCells(row.image, refitToInk(row.image, row.box), ROW.length)!;
    const b = cutCells(row.image, refitToInk(row.image, loose(row.box, 0.15 * row.box.height)), ROW.length)!;
    let diff = 0;
    for (let i = 0; i < a.pixels.length; i++) diff += Math.abs(a.pixels[i] - b.pixels[i]);
    expect(diff / a.pixels.length).toBeLessThan(0.05);
  });
});
