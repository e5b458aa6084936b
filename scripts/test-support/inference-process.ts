/**
 * Runs the inference service as its own process (as in production), so its event loop is not
 * the benchmark's. Reads the event-loop lag from its Prometheus endpoint (each scrape resets the
 * window) and its memory from /proc, adding every executor child.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FRONT_NODE_FLAGS } from '../../inference/src/config/front-node-flags';
import { cpuSecondsOf, descendants } from './process-tree';

export interface InferenceProcess {
  address: string;
  metricsUrl: string;
  pid: number;
  /** Resets the lag window; call before a load phase. */
  resetLag(): Promise<void>;
  /** p99 event-loop lag (ms) since the last scrape. */
  lagP99Ms(): Promise<number>;
  memory(): { rss_mb: number; pss_mb: number; processes: number };
  /** CPU seconds (user + system) used so far by the front and by its executor processes. */
  cpuSeconds(): { front: number; executors: number };
  stop(): Promise<void>;
}

function kb(file: string, field: string): number {
  try {
    const match = readFileSync(file, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** `root`: the checkout whose service runs (another one's, to compare a baseline in the same run). */
export async function startInferenceProcess(
  repository: string,
  env: Record<string, string> = {},
  root = join(__dirname, '../..'),
): Promise<InferenceProcess> {
  // Opt-in: INFERENCE_CPU_PROFILE_DIR=dir writes the front's V8 CPU profile there when it stops
  // (benchmarks/inference/summarise-cpu-profile.ts reads it). Executors are spawned without it.
  const profileDir = process.env.INFERENCE_CPU_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // The front's own V8 flags, as production runs it; INFERENCE_NODE_FLAGS="--flag ..." replaces
  // them for an experiment (an empty value runs it with none).
  const flags = (process.env.INFERENCE_NODE_FLAGS ?? FRONT_NODE_FLAGS.join(' ')).split(' ').filter(Boolean);
  const child: ChildProcess = spawn(
    process.execPath,
    // tsx's full loader (CommonJS and ESM hooks): the front loads its task modules with import().
    [...profile, ...flags, '--import', pathToFileURL(require.resolve('tsx')).href, join(root, 'inference/src/main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        MODEL_REPOSITORY: repository,
        INFERENCE_PORT: '0',
        INFERENCE_METRICS_PORT: '0',
        INFERENCE_HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const ports = await new Promise<{ grpc: number; metrics: number }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/gRPC :(\d+), metrics :(\d+)/);
      if (match) resolve({ grpc: Number(match[1]), metrics: Number(match[2]) });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => reject(new Error(`inference service exited (${code}) before ready:\n${output}`)));
  });
  const metricsUrl = `http://127.0.0.1:${ports.metrics}/metrics`;
  const scrape = async () => (await fetch(metricsUrl)).text();
  return {
    address: `127.0.0.1:${ports.grpc}`,
    metricsUrl,
    pid: child.pid!,
    resetLag: async () => {
      await scrape();
    },
    lagP99Ms: async () => {
      const match = (await scrape()).match(/^inference_nodejs_eventloop_lag_p99_seconds (\S+)/m);
      return match ? Number(match[1]) * 1000 : NaN;
    },
    memory: () => {
      const pids = [child.pid!, ...descendants(child.pid!)];
      const rss = pids.reduce((n, pid) => n + kb(`/proc/${pid}/status`, 'VmRSS'), 0);
      const pss = pids.reduce((n, pid) => n + kb(`/proc/${pid}/smaps_rollup`, 'Pss'), 0);
      return { rss_mb: Math.round(rss / 1024), pss_mb: Math.round(pss / 1024), processes: pids.length };
    },
    cpuSeconds: () => ({
      front: cpuSecondsOf(child.pid!),
      executors: descendants(child.pid!).reduce((n, pid) => n + cpuSecondsOf(pid), 0),
    }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
