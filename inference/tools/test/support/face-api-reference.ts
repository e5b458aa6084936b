/**
 * Runs @vladmandic/face-api's own FaceRecognitionNet (its bundled TFJS, CPU backend): the reference
 * face-embedding v3 is held to. The package's browser bundle (`dist/face-api.js`) carries its own
 * tfjs-core, so it is evaluated in a vm context of its own. Node's bundle would need
 * @tensorflow/tfjs-node, which this project does not install. The context has no platform for
 * tfjs to detect, so one is registered, and face-api's environment gets empty stand-ins, as
 * tensors are passed in and no image element is ever used.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createContext, runInContext } from 'node:vm';

interface FaceApiTensor {
  dispose(): void;
}
interface FaceApi {
  tf: {
    setPlatform(name: string, platform: unknown): void;
    setBackend(name: string): Promise<boolean>;
    tensor(values: number[], shape: number[]): FaceApiTensor;
    io: { decodeWeights(buffer: ArrayBuffer, specs: unknown[]): Record<string, unknown> };
  };
  env: { setEnv(env: unknown): void };
  FaceRecognitionNet: new () => {
    loadFromWeightMap(map: unknown): void;
    computeFaceDescriptor(input: FaceApiTensor): Promise<Float32Array>;
  };
}

export interface FaceApiReference {
  /** One 150×150 raw RGB (0–255) NHWC image → the 128-d descriptor. */
  describe(image: Float32Array): Promise<Float32Array>;
}

export async function loadFaceApiReference(packageDir: string): Promise<FaceApiReference> {
  const sandbox: Record<string, unknown> = {
    console,
    setTimeout,
    clearTimeout,
    TextEncoder,
    TextDecoder,
    performance,
  };
  sandbox.global = sandbox;
  createContext(sandbox);
  runInContext(
    `${readFileSync(path.join(packageDir, 'dist/face-api.js'), 'utf8')}\n;globalThis.faceapi = faceapi;`,
    sandbox,
  );
  const faceapi = sandbox.faceapi as FaceApi;
  faceapi.tf.setPlatform('vm', {
    fetch: null,
    now: () => performance.now(),
    encode: (s: string) => new TextEncoder().encode(s),
    decode: (b: Uint8Array, encoding: string) => new TextDecoder(encoding).decode(b),
    isTypedArray: (a: unknown) => ArrayBuffer.isView(a) && !(a instanceof DataView),
  });
  await faceapi.tf.setBackend('cpu');
  class Unused {}
  faceapi.env.setEnv({
    Canvas: Unused,
    Image: Unused,
    ImageData: Unused,
    Video: Unused,
    createCanvasElement: () => ({}),
    createImageElement: () => ({}),
  });
  const manifest = JSON.parse(
    readFileSync(path.join(packageDir, 'model/face_recognition_model-weights_manifest.json'), 'utf8'),
  ) as Array<{ weights: unknown[] }>;
  const shard = readFileSync(path.join(packageDir, 'model/face_recognition_model.bin'));
  const net = new faceapi.FaceRecognitionNet();
  net.loadFromWeightMap(faceapi.tf.io.decodeWeights(new Uint8Array(shard).buffer, manifest[0].weights));
  return {
    async describe(image) {
      const input = faceapi.tf.tensor(Array.from(image), [1, 150, 150, 3]);
      try {
        return Float32Array.from(await net.computeFaceDescriptor(input));
      } finally {
        input.dispose();
      }
    },
  };
}
