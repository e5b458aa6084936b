/**
 * jest runs each test file in its own vm context, whose typed-array constructors differ from the
 * ones Node's native addons create. onnxruntime-node then rejects its own outputs ("A float32
 * tensor's data must be type of Float32Array", onnxruntime#16622) and Buffers are not
 * `instanceof Uint8Array`. Production code runs in one realm; this gives tests the same.
 */
const { TestEnvironment } = require('jest-environment-node');

const TYPED_ARRAYS = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Int16Array',
  'Int32Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Uint16Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
];

class NodeRealmEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

module.exports = NodeRealmEnvironment;
