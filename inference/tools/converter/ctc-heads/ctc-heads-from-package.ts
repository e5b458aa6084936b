/**
 * The materializer's `append-ctc-greedy-heads` conversion: reads the recogniser and its charset
 * (the config's one source asset, from the same package) and appends the decoding heads. The MRZ
 * classes come from the charset through the decoder's own function, so graph and decoder agree.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { onnx } from 'onnx-proto';
import { charsetFromText } from '../../../src/tasks';
import { appendCtcHeads } from './append-ctc-heads';

export interface CtcHeadsSource {
  /** Path inside the package of the recogniser. */
  path: string;
  assets?: Record<string, { path: string }>;
}

export async function ctcHeadsFromPackage(modelFile: string, source: CtcHeadsSource): Promise<Uint8Array> {
  const assets = Object.values(source.assets ?? {});
  if (assets.length !== 1)
    throw new Error(`append-ctc-greedy-heads needs exactly one source asset (the charset), found ${assets.length}`);
  const [asset] = assets;
  const packageRoot = modelFile.slice(0, modelFile.length - path.normalize(source.path).length);
  const model = await readFile(modelFile);
  const softmax = onnx.ModelProto.decode(model).graph?.output?.[0];
  const classCount = Number(softmax?.type?.tensorType?.shape?.dim?.[2]?.dimValue);
  const charset = charsetFromText(await readFile(path.join(packageRoot, asset.path), 'utf8'), classCount);
  return appendCtcHeads(model, charset.mrzClasses);
}
