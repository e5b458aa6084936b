import { decodeLine, type Charset } from './ctc-decode';
import { lineText } from '../mrz/mrz-reading';

// A toy charset: blank, then 'A', '0', 'O', '<', '[' (outside the MRZ alphabet).
const charset: Charset = { classes: ['', 'A', '0', 'O', '<', '['], mrzClasses: Int32Array.from([1, 2, 3, 4]) };

function frames(rows: number[][]): Float32Array {
  return Float32Array.from(rows.flat());
}

describe('greedy CTC decoding of the recogniser output', () => {
  it('collapses repeats, drops blanks and keeps a repeated character separated by a blank', () => {
    const probs = frames([
      [0.1, 0.9, 0, 0, 0, 0], [0.1, 0.9, 0, 0, 0, 0], [0.9, 0.1, 0, 0, 0, 0],
      [0.1, 0.8, 0, 0, 0.1, 0], [0.9, 0, 0, 0, 0.1, 0], [0, 0, 0, 0, 1, 0],
    ]);
    const out = decodeLine(probs, 0, 6, charset);
    expect(out.text).toBe('AA<');
    expect(lineText(out.mrz)).toBe('AA<');
  });

  it('puts back a space where the gap between two characters is much wider than the line\'s usual spacing', () => {
    const a = [0.1, 0.9, 0, 0, 0, 0];
    const blank = [0.9, 0.1, 0, 0, 0, 0];
    const probs = frames([a, blank, a, blank, a, blank, blank, blank, blank, blank, a, blank, a]);
    expect(decodeLine(probs, 0, 13, charset).text).toBe('AAA AA');
  });

  it('keeps the runner-up MRZ character of each character for correction to weigh', () => {
    const out = decodeLine(frames([[0.05, 0, 0.6, 0.35, 0, 0]]), 0, 1, charset);
    expect(out.mrz[0]).toEqual({ char: '0', prob: expect.closeTo(0.6), alternative: { char: 'O', prob: expect.closeTo(0.35) } });
  });

  it('reads a character outside the MRZ alphabet as the closest MRZ character instead of dropping it', () => {
    const out = decodeLine(frames([[0.2, 0.1, 0, 0, 0, 0.7]]), 0, 1, charset);
    expect(out.text).toBe('[');
    expect(lineText(out.mrz)).toBe('A');
  });
});
