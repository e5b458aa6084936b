/**
 * Entry point for `source.conversion: "dlib-resnet-weights-to-onnx"`: face-api's
 * face_recognition_model weights manifest in, model.onnx bytes out (deterministic: fixed node
 * order, no timestamps).
 */
import { encodeModel } from '../onnx-writer';
import { CONVERTER_VERSION } from '../tfjs-to-onnx';
import { buildDlibResnetGraph } from './dlib-resnet-graph';
import { readWeightsManifest } from './weights-manifest-file';

export async function convertDlibResnetWeights(manifestPath: string, provenance: string): Promise<Uint8Array> {
  const graph = buildDlibResnetGraph(await readWeightsManifest(manifestPath));
  return encodeModel(graph, {
    graphName: 'dlib_face_recognition_resnet_v1',
    docString: `dlib face-recognition ResNet built from the weights manifest ${provenance} and the architecture in the package's src/faceRecognitionNet; NHWC raw RGB in, 128-d descriptor out`,
    producerVersion: CONVERTER_VERSION,
  });
}
