/**
 * Reads a V8 .cpuprofile (the inference front run with INFERENCE_CPU_PROFILE_DIR, see
 * scripts/test-support/inference-process.ts) and prints where its main thread's time went: self
 * time by function, by file, and by stage of the front. Only the main thread is sampled: libvips,
 * the libuv pool and V8's helper threads (concurrent GC, compilation) are not in a .cpuprofile, so
 * read their share from the per-thread CPU of the same run.
 *
 *   npx tsx benchmarks/inference/summarise-cpu-profile.ts FILE.cpuprofile [--top 30] [--from-s 60]
 *
 * `--from-s N` skips the first N seconds (start-up, model warm-up, the benchmark's warm-up).
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** The front's stages, by the file a sample's own function sits in (first match wins). */
const STAGES: Array<[string, RegExp]> = [
  ['garbage collection', /^\(garbage collector\)$/],
  ['idle', /^\(idle\)$/],
  ['native and V8 internals (program)', /^\(program\)$/],
  [
    'affine sampling and crops',
    /inference\/src\/images\/(affine-sampler|crop-buffers)|tasks\/antispoof\/pad-crop|face\/(align-face|dlib-chip)/,
  ],
  [
    'tensor building and normalisation',
    /inference\/src\/images\/image-to-tensor|batching\/batch-tensors|runtime\/host-tensors/,
  ],
  ['decode (JS side of sharp)', /node_modules\/sharp|images\/(decode-image|probe-image)/],
  ['executor transport (frames)', /inference\/src\/executor\//],
  [
    'row cache and image memo (hashing)',
    /serving\/(row-result-cache|remembered-images)|tasks\/remembered-work|node:crypto/,
  ],
  ['gRPC and protobuf', /@grpc|protobufjs|@bufbuild|proto\/gen|inference\/src\/grpc\//],
  ['checks own code (tasks)', /inference\/src\/tasks\//],
  ['serving, batching, runtime', /inference\/src\/(serving|batching|runtime)\//],
  ['metrics', /prom-client|inference\/src\/metrics/],
  ['tsx loader', /node_modules\/(tsx|esbuild)/],
  ['node internals', /^node:/],
];

function stageOf(frame: CallFrame): string {
  const key = frame.url || frame.functionName;
  for (const [stage, pattern] of STAGES) if (pattern.test(key)) return stage;
  if (frame.url === '') return `native: ${frame.functionName}`;
  return 'other JS';
}

function shortUrl(url: string): string {
  return (
    url.replace(/^file:\/\//, '').replace(/^.*?(node_modules\/|inference\/|proto\/|scripts\/)/, '$1') || '(native)'
  );
}

function table(title: string, rows: Map<string, number>, total: number, top: number): void {
  console.log(`\n${title}`);
  console.log('| ms | % | item |\n|---:|---:|---|');
  [...rows]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([name, us]) =>
      console.log(`| ${(us / 1000).toFixed(0)} | ${((100 * us) / total).toFixed(1)} | ${name} |`),
    );
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: summarise-cpu-profile.ts FILE.cpuprofile [--top N] [--from-s S]');
  const top = option('top', 30);
  const fromUs = option('from-s', 0) * 1e6;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byStage = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let at = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (at < fromUs) return;
    const frame = byId.get(id)!.callFrame;
    add(byStage, stageOf(frame), us);
    if (frame.functionName === '(idle)') return;
    busy += us;
    // No line number: tsx's transform puts each module on a line or two of its own.
    const fn = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}`;
    add(byFunction, fn, us);
    add(byFile, shortUrl(frame.url), us);
  });
  console.log(
    `${file}: ${(at / 1e6).toFixed(1)} s sampled, ${((at - fromUs) / 1e6).toFixed(1)} s after --from-s, main thread busy ${(busy / 1e6).toFixed(1)} s`,
  );
  table('Self time by stage (main thread; % of the busy time, idle shown apart)', byStage, busy, top);
  table('Self time by file', byFile, busy, top);
  table('Self time by function', byFunction, busy, top);
}

main();
