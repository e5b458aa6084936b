import { selectInPlace } from './order-statistic';

function noise(n: number, seed: number, levels = 0): Float32Array {
  let state = seed;
  return Float32Array.from({ length: n }, () => {
    state = (state * 1103515245 + 12345) >>> 0;
    const v = (state / 2 ** 32) * 255;
    return levels ? Math.round(v / (255 / levels)) * (255 / levels) : v;
  });
}

describe('selecting an order statistic', () => {
  it.each([
    ['random grey levels', noise(5000, 3)],
    ['few distinct levels (a flat margin with text)', noise(5000, 5, 3)],
    ['an already sorted row', Float32Array.from({ length: 4000 }, (_, i) => i)],
    ['a reversed row', Float32Array.from({ length: 4000 }, (_, i) => 4000 - i)],
    ['one value everywhere', new Float32Array(3000).fill(127.5)],
  ])("gives the sorted array's value at the 2nd and 98th percentile for %s", (_name, values) => {
    const sorted = Float32Array.from(values).sort();
    const low = Math.floor(0.02 * values.length);
    const high = Math.floor(0.98 * values.length);
    const copy = Float32Array.from(values);
    expect(selectInPlace(copy, low)).toBe(sorted[low]);
    expect(selectInPlace(copy, high, low)).toBe(sorted[high]);
  });

  it('answers every index of a small array as sorting would', () => {
    const values = noise(37, 11, 5);
    const sorted = Float32Array.from(values).sort();
    for (let k = 0; k < values.length; k++) expect(selectInPlace(Float32Array.from(values), k)).toBe(sorted[k]);
  });
});
