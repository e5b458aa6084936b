/**
 * Which form a recogniser version returns, read from the outputs its config declares: the full
 * [T, classes] softmax (version 1), or the greedy-decoding heads computed in the graph (version 2:
 * a few bytes per frame instead of 26 kB). Both decode to the same lines (ctc-decode.ts).
 */
import type { HostTensor, ModelConfig } from '../../../runtime/model-runner';
import { decodeLine, decodeLineFromHeads, type Charset, type DecodedLine } from './ctc-decode';

/** Output names of the heads appended by the materializer's `append-ctc-greedy-heads` conversion. */
export const CTC_HEAD_OUTPUTS = {
  bestClass: 'best_class',
  bestProb: 'best_prob',
  mrzTop2Class: 'mrz_top2_class',
  mrzTop2Prob: 'mrz_top2_prob',
} as const;

export type RecognitionOutputs =
  { form: 'probabilities'; name: string; classes: number } | { form: 'heads'; classes: number };

export function recognitionOutputsOf(config: ModelConfig): RecognitionOutputs {
  const declared = new Map(config.outputs.map((o) => [o.name, o]));
  const bestClass = declared.get(CTC_HEAD_OUTPUTS.bestClass);
  if (bestClass) {
    const missing = Object.values(CTC_HEAD_OUTPUTS).filter((name) => !declared.has(name));
    if (missing.length > 0)
      throw new Error(
        `model ${config.name}@${config.version} declares ${CTC_HEAD_OUTPUTS.bestClass} but not ${missing.join(', ')}`,
      );
    if (!bestClass.classes)
      throw new Error(
        `model ${config.name}@${config.version}: output ${CTC_HEAD_OUTPUTS.bestClass} must declare its class count ("classes")`,
      );
    return { form: 'heads', classes: bestClass.classes };
  }
  const [probabilities] = config.outputs;
  if (config.outputs.length !== 1 || probabilities.dims.length !== 2) {
    throw new Error(
      `model ${config.name}@${config.version} declares neither one [T, classes] output nor the ${CTC_HEAD_OUTPUTS.bestClass} heads`,
    );
  }
  return { form: 'probabilities', name: probabilities.name, classes: probabilities.dims[1] };
}

/** Decodes every line of one batch run, in batch order. */
export function decodeBatch(
  form: RecognitionOutputs,
  outputs: Record<string, HostTensor>,
  lines: number,
  charset: Charset,
): DecodedLine[] {
  if (form.form === 'probabilities') {
    const out = outputs[form.name];
    const [, frames, classes] = out.dims;
    return Array.from({ length: lines }, (_, n) =>
      decodeLine(out.data as Float32Array, n * frames * classes, frames, charset),
    );
  }
  const bestClass = outputs[CTC_HEAD_OUTPUTS.bestClass];
  const heads = {
    bestClass: bestClass.data as Int32Array,
    bestProb: outputs[CTC_HEAD_OUTPUTS.bestProb].data as Float32Array,
    mrzTop2Class: outputs[CTC_HEAD_OUTPUTS.mrzTop2Class].data as Int32Array,
    mrzTop2Prob: outputs[CTC_HEAD_OUTPUTS.mrzTop2Prob].data as Float32Array,
  };
  const frames = bestClass.dims[1];
  return Array.from({ length: lines }, (_, n) => decodeLineFromHeads(heads, n, frames, charset));
}
