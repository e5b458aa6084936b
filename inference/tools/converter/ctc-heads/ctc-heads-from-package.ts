/**
 * The materializer's `append-ctc-greedy-heads` conversion: reads the recogniser and its charset
 * (the config's one source asset, from the same package) and appends the decoding heads. The MRZ
 * classes come from the charset through the decoder's own function, so graph and decoder agree.
 * `slice-latin-classes-append-ctc-heads` first cuts the classifier to the Latin classes
 * (slice-classes.ts), folds the affine blocks after convolutions into them (fold-conv-affine.ts)
 * and writes each hard-swish as two ops instead of four (fuse-hard-swish.ts);
 * its heads still return charset class numbers, so the charset is unchanged.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { onnx } from 'onnx-proto';
import { charsetFromText } from '../../../src/tasks';
import { appendCtcHeads } from './append-ctc-heads';
import { foldConvAffine } from './fold-conv-affine';
import { fuseHardSwish } from './fuse-hard-swish';
import { latinClasses, sliceClasses } from './slice-classes';

export interface CtcHeadsSource {
  /** Path inside the package of the recogniser. */
  path: string;
  assets?: Record<string, { path: string }>;
}

export async function ctcHeadsFromPackage(
  modelFile: string,
  source: CtcHeadsSource,
  options: { latinOnly?: boolean } = {},
): Promise<Uint8Array> {
  const assets = Object.values(source.assets ?? {});
  if (assets.length !== 1)
    throw new Error(`append-ctc-greedy-heads needs exactly one source asset (the charset), found ${assets.length}`);
  const [asset] = assets;
  const packageRoot = modelFile.slice(0, modelFile.length - path.normalize(source.path).length);
  const model = await readFile(modelFile);
  const softmax = onnx.ModelProto.decode(model).graph?.output?.[0];
  const classCount = Number(softmax?.type?.tensorType?.shape?.dim?.[2]?.dimValue);
  const charset = charsetFromText(await readFile(path.join(packageRoot, asset.path), 'utf8'), classCount);
  if (!options.latinOnly) return appendCtcHeads(model, charset.mrzClasses);
  const kept = latinClasses(charset.classes);
  const { model: folded } = foldConvAffine(sliceClasses(model, kept));
  const { model: fused } = fuseHardSwish(folded);
  return appendCtcHeads(fused, charset.mrzClasses, kept);
}
