import { decodeLine, decodeLineFromHeads, type Charset, type CtcHeads } from './ctc-decode';
import { lineText } from '../mrz/mrz-reading';
import { closeTo } from '../../../../../scripts/test-support/typed-matchers';

// A toy charset: blank, then 'A', '0', 'O', '<', '[' (outside the MRZ alphabet).
const charset: Charset = {
  classes: ['', 'A', '0', 'O', '<', '['],
  mrzClasses: Int32Array.from([1, 2, 3, 4]),
};

function frames(rows: number[][]): Float32Array {
  return Float32Array.from(rows.flat());
}

describe('greedy CTC decoding of the recogniser output', () => {
  it('collapses repeats, drops blanks and keeps a repeated character separated by a blank', () => {
    const probs = frames([
      [0.1, 0.9, 0, 0, 0, 0],
      [0.1, 0.9, 0, 0, 0, 0],
      [0.9, 0.1, 0, 0, 0, 0],
      [0.1, 0.8, 0, 0, 0.1, 0],
      [0.9, 0, 0, 0, 0.1, 0],
      [0, 0, 0, 0, 1, 0],
    ]);
    const out = decodeLine(probs, 0, 6, charset);
    expect(out.text).toBe('AA<');
    expect(lineText(out.mrz)).toBe('AA<');
  });

  it("puts back a space where the gap between two characters is much wider than the line's usual spacing", () => {
    const a = [0.1, 0.9, 0, 0, 0, 0];
    const blank = [0.9, 0.1, 0, 0, 0, 0];
    const probs = frames([a, blank, a, blank, a, blank, blank, blank, blank, blank, a, blank, a]);
    expect(decodeLine(probs, 0, 13, charset).text).toBe('AAA AA');
  });

  it('keeps the runner-up MRZ character of each character for correction to weigh', () => {
    const out = decodeLine(frames([[0.05, 0, 0.6, 0.35, 0, 0]]), 0, 1, charset);
    expect(out.mrz[0]).toEqual({
      char: '0',
      prob: closeTo(0.6),
      alternative: { char: 'O', prob: closeTo(0.35) },
    });
  });

  it('reads a character outside the MRZ alphabet as the closest MRZ character instead of dropping it', () => {
    const out = decodeLine(frames([[0.2, 0.1, 0, 0, 0, 0.7]]), 0, 1, charset);
    expect(out.text).toBe('[');
    expect(lineText(out.mrz)).toBe('A');
  });
});

describe('decoding the reduced outputs a recogniser computes in its graph', () => {
  /** What the graph's heads return: ArgMax (first of equal maxima), ReduceMax, TopK 2 over the MRZ classes (lower index first on ties). */
  function heads(probs: Float32Array, frames: number): CtcHeads {
    const count = charset.classes.length;
    const out: CtcHeads = {
      bestClass: new Int32Array(frames),
      bestProb: new Float32Array(frames),
      mrzTop2Class: new Int32Array(2 * frames),
      mrzTop2Prob: new Float32Array(2 * frames),
    };
    for (let t = 0; t < frames; t++) {
      const row = Array.from(probs.subarray(t * count, (t + 1) * count));
      out.bestClass[t] = row.indexOf(Math.max(...row));
      out.bestProb[t] = Math.max(...row);
      const ranked = [...charset.mrzClasses]
        .map((c, i) => ({ c, i, p: row[c] }))
        .sort((a, b) => b.p - a.p || a.i - b.i);
      out.mrzTop2Class.set([ranked[0].c, ranked[1].c], 2 * t);
      out.mrzTop2Prob.set([ranked[0].p, ranked[1].p], 2 * t);
    }
    return out;
  }

  it('reads the same text, score and MRZ readings as the full probabilities, ties and characters outside the MRZ alphabet included', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const rows: number[][] = [];
    for (let t = 0; t < 60; t++) {
      const row = Array.from({ length: 6 }, () => Math.round(random() * 4) / 4);
      rows.push(row);
    }
    const probs = frames(rows);
    expect(decodeLineFromHeads(heads(probs, 60), 0, 60, charset)).toEqual(decodeLine(probs, 0, 60, charset));
  });

  it('finds each line of a batch at its own frames', () => {
    const a = [0.1, 0.9, 0, 0, 0, 0];
    const o = [0.1, 0, 0, 0.9, 0, 0];
    const blank = [0.9, 0.1, 0, 0, 0, 0];
    const probs = frames([a, blank, a, o, blank, o]);
    const batch = heads(probs, 6);
    expect(decodeLineFromHeads(batch, 0, 3, charset).text).toBe('AA');
    expect(decodeLineFromHeads(batch, 1, 3, charset).text).toBe('OO');
  });
});
