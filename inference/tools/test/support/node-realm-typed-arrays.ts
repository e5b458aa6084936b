/**
 * jest runs each test file in its own vm context, whose Float32Array is not the one
 * onnxruntime-node's native binding creates, so onnxruntime-common's `instanceof` check rejects
 * every output ("A float32 tensor's data must be type of Float32Array", onnxruntime#16622).
 * Import this first in a test that runs ONNX sessions: it gives the test context Node's own
 * typed-array constructors. Production code runs in one realm and never needs it.
 */
import { runInThisContext } from 'node:vm';

const names = [
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Int16Array',
  'Int32Array',
  'Uint8Array',
  'Uint16Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
];
for (const name of names) (globalThis as Record<string, unknown>)[name] = runInThisContext(name);
