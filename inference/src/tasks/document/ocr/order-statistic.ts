/**
 * The value that would sit at `index` if `values` were sorted ascending, without sorting them:
 * Hoare's selection, on a copy the caller may reuse for a second, larger index. Every text line is
 * contrast-stretched between two such values of its grey levels (tens of thousands per line), where
 * a full sort cost more than the stretch itself.
 */
export function selectInPlace(values: Float32Array, index: number, from = 0): number {
  let lo = from;
  let hi = values.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // Median of three as the pivot keeps sorted or flat rows (a blank margin) from going quadratic.
    const [a, b, c] = [values[lo], values[mid], values[hi]];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (index <= j) hi = j;
    else if (index >= i) lo = i;
    else return values[index];
  }
  return values[index];
}
