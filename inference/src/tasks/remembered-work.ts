/**
 * How task code uses the service's image memo (runtime/image-memo.ts) when its runner carries one:
 * uploads decoded once, and per-image work (faces found, landmarks, embeddings, crop scores) done
 * once per upload however many checks ask. Without a memo (unit tests, the evaluation tools) every
 * call does its own work, as before.
 */
import { decodeRgbImage } from '../images/decode-image';
import type { RgbImage } from '../images/rgb-image';
import type { ModelRunner } from '../runtime/model-runner';

/**
 * The longest side a face upload (selfie, liveness frame, document portrait) is decoded at. The
 * face models see at most 256 px (the detector's letterbox; its retry tiles reach about 430 px of
 * the whole image) and cut a face to 192 px at most, so at 1,280 px a face a sixth of the frame
 * wide still reaches the landmark model at full resolution. A 12 MP phone photo (4032 x 3024) then
 * decodes through libjpeg's shrink-on-load (DCT scaling by 2, then sharp's resize): sharp takes the
 * shrink only when the target is at most a third of the photo, so 1,600 px would decode it whole
 * (bench:front measures both). Smaller uploads decode as they are, pixel for pixel.
 */
export const FACE_UPLOAD_MAX_SIDE = 1280;

/** Decodes an uploaded face image (`what` names it in errors), through the memo when there is one. */
export function decodeUpload(runner: ModelRunner, bytes: Uint8Array, what: string): Promise<RgbImage> {
  const decode = () => decodeRgbImage(bytes, { what, maxSide: FACE_UPLOAD_MAX_SIDE });
  return runner.memo ? runner.memo.decode(bytes, decode) : decode();
}

/**
 * `compute`'s answer for each item, where items whose upload already has an answer for `op` take
 * it and the rest run in one batch (so the models still see one batch). Items with no upload behind
 * them (crops, tiles: `sourceOf` gives undefined) always run. When a run shared with another call
 * fails (that call was cancelled or ran past its deadline) the items it owed are run here again.
 */
export async function rememberedEach<I, T>(
  runner: ModelRunner,
  op: string,
  items: I[],
  sourceOf: (item: I) => string | undefined,
  compute: (items: I[]) => Promise<T[]>,
): Promise<T[]> {
  const memo = runner.memo;
  if (!memo) return compute(items);
  const missing: I[] = [];
  let release!: () => void;
  const collected = new Promise<void>((resolve) => (release = resolve));
  let run: Promise<T[]> | undefined;
  const owe = (item: I): Promise<T> => {
    const n = missing.push(item) - 1;
    run ??= collected.then(() => compute(missing));
    return run.then((answers) => answers[n]);
  };
  const own = new Set<number>();
  const answers = items.map((item, i) => {
    const source = sourceOf(item);
    if (!source) {
      own.add(i);
      return owe(item);
    }
    return memo.derived(source, op, () => {
      own.add(i);
      return owe(item);
    });
  });
  release();
  try {
    return await Promise.all(answers);
  } catch (error) {
    const settled = await Promise.allSettled(answers);
    if (settled.some((s, i) => s.status === 'rejected' && own.has(i))) throw error;
    const retry = settled.flatMap((s, i) => (s.status === 'rejected' ? [i] : []));
    const again = await compute(retry.map((i) => items[i]));
    return settled.map((s, i) => (s.status === 'fulfilled' ? s.value : again[retry.indexOf(i)]));
  }
}
