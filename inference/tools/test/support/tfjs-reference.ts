/**
 * Runs the original TFJS graph model under @tensorflow/tfjs's CPU backend: the reference the
 * converted ONNX model is held to. Outputs are fetched by their TF tensor names and returned
 * under the ONNX names the config gave them.
 */
import * as tf from '@tensorflow/tfjs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TfjsModelJson } from '../../converter/tfjs-model-json';

export interface TfjsReference {
  /** ONNX output name → TF tensor name. */
  outputs: Map<string, string>;
  run(input: Float32Array, dims: number[]): Record<string, Float32Array>;
}

const strip = (name: string) => name.replace(/:0$/, '');

export async function loadTfjsReference(
  modelJsonPath: string,
  names: Record<string, string> = {},
): Promise<TfjsReference> {
  await tf.setBackend('cpu');
  const json = JSON.parse(await readFile(modelJsonPath, 'utf8')) as TfjsModelJson;
  const dir = path.dirname(modelJsonPath);
  const shards = await Promise.all(
    json.weightsManifest.flatMap((g) => g.paths.map((p) => readFile(path.join(dir, p)))),
  );
  const weightData = new Uint8Array(Buffer.concat(shards)).buffer;
  const model = await tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData,
      format: json.format,
      signature: json.signature,
      userDefinedMetadata: json.userDefinedMetadata,
    }),
  );
  const signature = json.signature ?? json.userDefinedMetadata?.signature;
  const outputs = new Map(
    Object.entries(signature!.outputs).map(([key, entry]) => [
      names[key] ?? names[entry.name] ?? strip(entry.name),
      entry.name,
    ]),
  );
  const tfNames = [...outputs.values()];
  return {
    outputs,
    run(input, dims) {
      return tf.tidy(() => {
        const result = model.execute(tf.tensor(input, dims), tfNames);
        const tensors = Array.isArray(result) ? result : [result];
        return Object.fromEntries([...outputs.keys()].map((onnx, i) => [onnx, tensors[i].dataSync() as Float32Array]));
      });
    },
  };
}
