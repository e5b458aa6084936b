/**
 * `npx tsx inference/tools/quantize-detector/bench-detector-bare.ts --models fp32=A.onnx,int8=B.onnx
 * [--calibration DIR] [--rounds 7] [--runs 3] [--threads 1|0]`: the bare cost of text-detection
 * variants in onnxruntime-node, in this process, with the service's session options (graph
 * optimisation 'all', no spinning; `--threads 0` leaves ORT's default intra-op count, as the
 * service does, 1 pins one thread as the document-read bench does). Each round runs every model at
 * every shape the service feeds the detector (the two 960-px page orientations, and a batch of 2)
 * back to back, so drifts in the machine's speed reach all alike; the inputs are real pages from
 * dump-calibration-pages.ts. Prints the median over rounds of the process CPU (every thread) and
 * wall time of one run.
 */
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

interface CalibrationIndex {
  inputs: Array<{ file: string; dims: number[] }>;
}

/** One real page of each orientation, and the landscape one twice as a batch of 2. */
async function realInputs(folder: string): Promise<Record<string, ort.Tensor>> {
  const index = JSON.parse(await readFile(path.join(folder, 'index.json'), 'utf8')) as CalibrationIndex;
  const load = async (dims: number[]): Promise<Float32Array> => {
    const item = index.inputs.find((i) => i.dims.join('x') === dims.join('x'));
    if (!item) throw new Error(`no calibration page of shape ${dims.join('x')} in ${folder}`);
    const bytes = await readFile(path.join(folder, item.file));
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  };
  const landscape = await load([1, 3, 800, 960]);
  const portrait = await load([1, 3, 960, 800]);
  const pair = new Float32Array(landscape.length * 2);
  pair.set(landscape, 0);
  pair.set(landscape, landscape.length);
  return {
    '1x3x800x960': new ort.Tensor('float32', landscape, [1, 3, 800, 960]),
    '1x3x960x800': new ort.Tensor('float32', portrait, [1, 3, 960, 800]),
    '2x3x800x960': new ort.Tensor('float32', pair, [2, 3, 800, 960]),
  };
}

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  const models = arg('models', `fp32=${path.join(root, 'models/text-detection/1/model.onnx')}`)
    .split(',')
    .map((pair) => pair.split('='));
  const folder = path.resolve(arg('calibration', path.join(root, '.state/bench/detection-calibration')));
  const rounds = Number(arg('rounds', '7'));
  const runs = Number(arg('runs', '3'));
  const threads = Number(arg('threads', '1'));
  const options: ort.InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
    ...(threads > 0 ? { intraOpNumThreads: threads } : {}),
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
  const sessions = await Promise.all(models.map(([, file]) => ort.InferenceSession.create(file, options)));
  const inputs = await realInputs(folder);
  const samples = new Map<string, { cpu: number[]; wall: number[] }>();
  // Warm-up: the first run of each shape allocates and plans.
  for (const session of sessions) {
    for (const tensor of Object.values(inputs)) await session.run({ [session.inputNames[0]]: tensor });
  }
  const loads: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Rotating which model goes first spreads any within-round drift over all of them.
    for (let k = 0; k < sessions.length; k++) {
      const m = (k + round) % sessions.length;
      const session = sessions[m];
      for (const [shape, tensor] of Object.entries(inputs)) {
        const cpu = process.cpuUsage();
        const wall = performance.now();
        for (let r = 0; r < runs; r++) await session.run({ [session.inputNames[0]]: tensor });
        const used = process.cpuUsage(cpu);
        const key = `${models[m][0]} ${shape}`;
        const entry = samples.get(key) ?? { cpu: [], wall: [] };
        entry.cpu.push((used.user + used.system) / 1000 / runs);
        entry.wall.push((performance.now() - wall) / runs);
        samples.set(key, entry);
      }
    }
    loads.push(loadavg()[0]);
  }
  console.log(
    `onnxruntime-node ${ort.env.versions.node ?? ''} threads=${threads || 'default'} rounds=${rounds} runs=${runs} load1 ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
  );
  console.log('| model | shape | CPU ms (median) | wall ms (median) |\n| --- | --- | ---: | ---: |');
  for (const [key, { cpu, wall }] of samples) {
    const [model, shape] = key.split(' ');
    console.log(`| ${model} | ${shape} | ${median(cpu).toFixed(0)} | ${median(wall).toFixed(0)} |`);
  }
  await Promise.all(sessions.map((s) => s.release()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
