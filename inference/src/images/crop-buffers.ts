/**
 * Reused buffers for crops. Every model input is first cut into a crop-sized Float32Array
 * (affine-sampler.ts) and read once, when packCrops normalises it into the batch tensor; a fresh
 * one per crop was 0.4-0.8 MB of zeroed off-heap memory each time, and that external memory is
 * what paced the front's garbage collections. A crop lent here goes back when packCrops has read
 * it; a crop nobody hands back is simply collected.
 */

/** Crops of one size kept for reuse: a verification's largest batch of one size is 8 rows. */
const KEPT_PER_SIZE = 16;
/**
 * Only face-sized crops are kept (detection's 256 x 256 is the largest); a page cut for text
 * detection is rarer, varies in size and would pin megabytes, so it is left to the collector.
 */
const LARGEST_KEPT = 256 * 256 * 3;
/** All kept crops together stay under this many values (16 MB). */
const KEPT_VALUES = 4 * 2 ** 20;

const free = new Map<number, Float32Array[]>();
let keptValues = 0;
/** Buffers now lent out, so only those come back (a caller's own array never enters the pool). */
const lent = new WeakSet<Float32Array>();

/** A Float32Array of `length` values whose contents are arbitrary: the caller overwrites every one. */
export function borrowCropBuffer(length: number): Float32Array {
  const kept = free.get(length)?.pop();
  if (kept) keptValues -= length;
  const buffer = kept ?? new Float32Array(length);
  lent.add(buffer);
  return buffer;
}

/** Hands back crops that came from borrowCropBuffer; the caller must not read them afterwards. */
export function returnCropBuffers(crops: ArrayLike<number>[]): void {
  for (const crop of crops) {
    if (!(crop instanceof Float32Array) || !lent.has(crop)) continue;
    lent.delete(crop);
    if (crop.length > LARGEST_KEPT || keptValues + crop.length > KEPT_VALUES) continue;
    const kept = free.get(crop.length) ?? free.set(crop.length, []).get(crop.length)!;
    if (kept.length >= KEPT_PER_SIZE) continue;
    kept.push(crop);
    keptValues += crop.length;
  }
}
