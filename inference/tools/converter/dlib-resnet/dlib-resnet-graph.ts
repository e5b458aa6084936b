/**
 * dlib's face-recognition ResNet (dlib_face_recognition_resnet_model_v1, 128-d) as an ONNX graph,
 * built from the architecture in @vladmandic/face-api's `src/faceRecognitionNet/` and the weights
 * its manifest names. The interface follows the project's converted models: NHWC `image` of raw
 * RGB 0–255, 150×150, and `embedding` [N, 128]. The package's own preprocessing (subtract the mean
 * RGB, divide by 255) is in the graph, so the model is fed exactly what face-api feeds it.
 *
 * Inside, the graph runs NCHW. Each layer is conv + bias followed by dlib's affine "scale" layer
 * (x·w + b per channel); the scale is folded into the convolution (w·filter, w·bias + b), which
 * onnxruntime would otherwise do at load anyway and which keeps the file small and deterministic.
 */
import { OnnxGraph, ints, str, int } from '../onnx-graph';
import type { DecodedWeight } from '../weights-decoder';

export const dlibInputSize = 150;
/** face-api's `normalize(batch, meanRgb).div(255)`. */
const meanRgb = [122.782, 117.001, 104.298];

const int64 = (values: number[]) => BigInt64Array.from(values, (v) => BigInt(v));

interface Tensor {
  name: string;
  channels: number;
  size: number;
}

export function buildDlibResnetGraph(weights: Map<string, DecodedWeight>): OnnxGraph {
  const graph = new OnnxGraph();
  const get = (name: string): DecodedWeight => {
    const w = weights.get(name);
    if (!w) throw new Error(`dlib resnet: weight ${name} is missing from the manifest`);
    return w;
  };
  graph.inputs.push({ name: 'image', dims: ['N', dlibInputSize, dlibInputSize, 3] });
  graph.uniqueName('image');
  const mean = graph.addInitializer('normalize/mean', [1, 1, 1, 3], Float32Array.from(meanRgb));
  const divisor = graph.addInitializer('normalize/divisor', [], Float32Array.from([255]));
  const centred = graph.addNode('Sub', ['image', mean]);
  const scaled = graph.addNode('Div', [centred, divisor]);
  const nchw = graph.addNode('Transpose', [scaled], { perm: ints([0, 3, 1, 2]) });

  const conv = (x: Tensor, prefix: string, stride: number, relu: boolean, padding: 'same' | 'valid'): Tensor => {
    const filters = get(`${prefix}/conv/filters`);
    const [kh, kw, ci, co] = filters.shape;
    if (ci !== x.channels) throw new Error(`dlib resnet: ${prefix} expects ${ci} channels, gets ${x.channels}`);
    const bias = get(`${prefix}/conv/bias`).values;
    const scale = get(`${prefix}/scale/weights`).values;
    const shift = get(`${prefix}/scale/biases`).values;
    const w = new Float32Array(co * ci * kh * kw);
    for (let y = 0; y < kh; y++)
      for (let xx = 0; xx < kw; xx++)
        for (let i = 0; i < ci; i++)
          for (let o = 0; o < co; o++)
            w[((o * ci + i) * kh + y) * kw + xx] = filters.values[((y * kw + xx) * ci + i) * co + o] * scale[o];
    const b = Float32Array.from({ length: co }, (_, o) => bias[o] * scale[o] + shift[o]);
    const attributes = {
      kernel_shape: ints([kh, kw]),
      strides: ints([stride, stride]),
      ...(padding === 'same' ? { auto_pad: str('SAME_UPPER') } : {}),
    };
    let out = graph.addNode(
      'Conv',
      [
        x.name,
        graph.addInitializer(`${prefix}/filter`, [co, ci, kh, kw], w),
        graph.addInitializer(`${prefix}/bias`, [co], b),
      ],
      attributes,
      graph.uniqueName(`${prefix}/conv`),
    );
    if (relu) out = graph.addNode('Relu', [out]);
    const size = padding === 'same' ? Math.ceil(x.size / stride) : Math.floor((x.size - kh) / stride) + 1;
    return { name: out, channels: co, size };
  };
  const pad = (x: Tensor, channels: number, size: number, prefix: string): Tensor => {
    if (channels === x.channels && size === x.size) return x;
    const extra = size - x.size;
    const pads = graph.addInitializer(
      `${prefix}/pads`,
      [8],
      int64([0, 0, 0, 0, 0, channels - x.channels, extra, extra]),
    );
    return { name: graph.addNode('Pad', [x.name, pads], { mode: str('constant') }), channels, size };
  };
  const add = (a: Tensor, b: Tensor): Tensor => ({
    ...a,
    name: graph.addNode('Relu', [graph.addNode('Add', [a.name, b.name])]),
  });
  const residual = (x: Tensor, prefix: string): Tensor =>
    add(conv(conv(x, `${prefix}/conv1`, 1, true, 'same'), `${prefix}/conv2`, 1, false, 'same'), x);
  /**
   * face-api's residualDown: the shortcut is a 2×2 average pool, zero-padded with channels; when
   * the strided 'valid' conv comes out one smaller than the pool, it gains a zero row and column
   * at the end (face-api's concat of zeros), which a Pad reproduces.
   */
  const residualDown = (x: Tensor, prefix: string): Tensor => {
    const out = conv(conv(x, `${prefix}/conv1`, 2, true, 'valid'), `${prefix}/conv2`, 1, false, 'same');
    const pooledSize = Math.floor((x.size - 2) / 2) + 1;
    const pooled: Tensor = {
      name: graph.addNode('AveragePool', [x.name], { kernel_shape: ints([2, 2]), strides: ints([2, 2]) }),
      channels: x.channels,
      size: pooledSize,
    };
    if (out.size > pooledSize || pooledSize - out.size > 1)
      throw new Error(`dlib resnet: ${prefix} pools to ${pooledSize} but convolves to ${out.size}`);
    return add(
      pad(pooled, out.channels, pooledSize, `${prefix}/shortcut`),
      pad(out, out.channels, pooledSize, `${prefix}/grow`),
    );
  };

  let x = conv({ name: nchw, channels: 3, size: dlibInputSize }, 'conv32_down', 2, true, 'valid');
  x = {
    ...x,
    name: graph.addNode('MaxPool', [x.name], { kernel_shape: ints([3, 3]), strides: ints([2, 2]) }),
    size: Math.floor((x.size - 3) / 2) + 1,
  };
  for (const block of ['conv32_1', 'conv32_2', 'conv32_3']) x = residual(x, block);
  x = residualDown(x, 'conv64_down');
  for (const block of ['conv64_1', 'conv64_2', 'conv64_3']) x = residual(x, block);
  x = residualDown(x, 'conv128_down');
  for (const block of ['conv128_1', 'conv128_2']) x = residual(x, block);
  x = residualDown(x, 'conv256_down');
  for (const block of ['conv256_1', 'conv256_2']) x = residual(x, block);
  x = residualDown(x, 'conv256_down_out');
  const pooled = graph.addNode('ReduceMean', [x.name], { axes: ints([2, 3]), keepdims: int(0) });
  const fc = get('fc');
  graph.addNode('MatMul', [pooled, graph.addInitializer('fc', fc.shape, fc.values)], {}, 'embedding');
  graph.outputs.push({ name: 'embedding', dims: ['N', fc.shape[1]] });
  return graph;
}
