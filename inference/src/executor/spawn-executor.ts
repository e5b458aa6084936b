/**
 * Starts an executor group: the models it is given, loaded, checked and warmed in one child
 * process (layout 'process'), or on the front's own thread ('inline', kept only to measure what
 * that costs). Child processes keep session.run() off the front's event loop and contain crashes:
 * worker_threads were ruled out by trial here, since terminating a worker that holds an
 * onnxruntime-node session aborted the whole process (Napi::Error) or hung (inference/README.md).
 */
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { ModelEntry } from '../repository/load-model-repository';
import { ModelRepositoryError } from '../repository/model-repository-error';
import { cudaRefusalMessage } from '../runtime/cuda-failure';
import { CudaUnavailableError, type SessionTuning } from '../runtime/execution-providers';
import { nvidiaDriverVersion } from '../runtime/nvidia-driver';
import { InferenceError } from '../runtime/inference-error';
import { concatBatch } from '../batching/batch-tensors';
import { socketLink } from './executor-links';
import { StderrTail } from './stderr-tail';
import type {
  ExecutorGroup,
  ExecutorLayout,
  ExecutorReply,
  ExecutorRequest,
  ModelExecutor,
  Tensors,
} from './executor-protocol';

const compiled = !__filename.endsWith('.ts');
const entryFile = join(__dirname, `executor-main${compiled ? '.js' : '.ts'}`);
// Source files need tsx's require hook in the child; a compiled build (dist/) runs plain node.
const loaderArgs = compiled ? [] : ['--require', require.resolve('tsx/cjs')];

type Waiter = { resolve(v: { outputs: Tensors; runMs: number; cpuMs: number }): void; reject(e: Error): void };
type Loaded = Extract<ExecutorReply, { type: 'loaded' }>;

/** The CUDA runtime libraries are found through LD_LIBRARY_PATH, which the loader reads only at a process's start. */
function executorEnv(tuning: SessionTuning): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    INFERENCE_EXECUTOR_NICE: String(tuning.executorNice ?? 0),
  };
  if ((tuning.device ?? 'cpu') !== 'cpu' && tuning.cudaLibraryPath) {
    env.LD_LIBRARY_PATH = [tuning.cudaLibraryPath, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  }
  return env;
}

async function processGroup(entries: ModelEntry[], tuning: SessionTuning): Promise<ExecutorGroup> {
  const child = spawn(process.execPath, [...loaderArgs, entryFile], {
    stdio: ['ignore', 'inherit', 'pipe', 'pipe'],
    env: executorEnv(tuning),
  });
  const stderr = new StderrTail();
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    process.stderr.write(chunk);
    stderr.push(chunk);
  });
  const loadMark = stderr.mark;
  const link = socketLink<ExecutorRequest, ExecutorReply>(child.stdio[3] as Socket);
  const pending = new Map<number, Waiter>();
  const loads = new Map<string, { resolve(r: Loaded): void; reject(e: Error): void }>();
  let nextId = 1;
  let dead: string | undefined;
  let closing = false;
  let exitListener: ((reason: string) => void) | undefined;

  link.onMessage((reply, tensors) => {
    if (reply.type === 'loaded') return void withStderrReasons(reply).then((r) => loads.get(reply.model)?.resolve(r));
    if (reply.type === 'load-failed') return void loadFailure(reply).then((e) => loads.get(reply.model)?.reject(e));
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.type === 'result') waiter?.resolve({ outputs: tensors, runMs: reply.runMs, cpuMs: reply.cpuMs });
    else waiter?.reject(new InferenceError('INTERNAL', `model run failed: ${reply.message}`));
  });
  child.once('exit', (code, signal) => {
    dead = `executor process exited (${signal ?? `code ${code}`})`;
    for (const [model, load] of loads) load.reject(new ModelRepositoryError(model, dead));
    for (const waiter of pending.values()) waiter.reject(new InferenceError('UNAVAILABLE', dead));
    pending.clear();
    if (!closing) exitListener?.(dead);
  });
  const terminate = () =>
    new Promise<void>((resolve) => {
      closing = true;
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });

  async function loadFailure(reply: Extract<ExecutorReply, { type: 'load-failed' }>): Promise<Error> {
    if (!reply.cudaUnavailable)
      return new ModelRepositoryError(reply.model, reply.message.replace(/^model "[^"]+": /, ''));
    const message = cudaRefusalMessage(reply.message, await stderr.reason(loadMark), nvidiaDriverVersion());
    return new ModelRepositoryError(reply.model, message);
  }
  async function withStderrReasons(reply: Loaded): Promise<Loaded> {
    if (reply.skipped.length === 0) return reply;
    const reason = await stderr.reason(loadMark);
    return { ...reply, skipped: reply.skipped.map((s) => ({ ...s, reason: reason ?? s.reason })) };
  }

  const executors = new Map<string, ModelExecutor>();
  try {
    const ready = await Promise.all(
      entries.map(
        (entry) =>
          new Promise<Loaded>((resolve, reject) => {
            loads.set(entry.name, { resolve, reject });
            link.send({ type: 'load', entry, tuning });
          }),
      ),
    );
    for (const loaded of ready) {
      executors.set(loaded.model, {
        provider: loaded.provider,
        skippedProviders: loaded.skipped,
        warmupMs: loaded.warmupMs,
        pid: child.pid ?? -1,
        run: (requests, rank) =>
          new Promise((resolve, reject) => {
            if (dead) return reject(new InferenceError('UNAVAILABLE', `model "${loaded.model}": ${dead}`));
            const id = nextId++;
            pending.set(id, { resolve, reject });
            link.send({ type: 'run', id, model: loaded.model, rank }, requests);
          }),
      });
    }
  } catch (error) {
    await terminate();
    throw error;
  }
  return {
    pid: child.pid ?? -1,
    executors,
    onExit: (l) => {
      exitListener = l;
    },
    close: terminate,
  };
}

/** Sessions on the front's own thread: blocks its event loop; exists only for the benchmark. */
async function inlineGroup(entries: ModelEntry[], tuning: SessionTuning): Promise<ExecutorGroup> {
  // Loaded here only, so the front never loads onnxruntime unless it runs models inline.
  const { openModel } = await import('../runtime/open-model');
  const models: Array<Awaited<ReturnType<typeof openModel>>> = [];
  for (const entry of entries) {
    try {
      models.push(await openModel(entry, tuning));
    } catch (error) {
      await Promise.all(models.map((m) => m.close()));
      if (error instanceof CudaUnavailableError)
        throw new ModelRepositoryError(entry.name, cudaRefusalMessage(error.reason, undefined, nvidiaDriverVersion()));
      throw error;
    }
  }
  const executors = new Map<string, ModelExecutor>(
    models.map((model) => [
      model.entry.name,
      {
        provider: model.provider,
        skippedProviders: model.skippedProviders,
        warmupMs: model.warmupMs,
        pid: process.pid,
        run: async (requests: Tensors[]) => {
          const started = performance.now();
          const outputs = await model.run(concatBatch(requests));
          const runMs = performance.now() - started;
          // The front's own work runs in this process too: its CPU would not be the run's. The run
          // blocks the thread, so its time is the closest figure.
          return { outputs, runMs, cpuMs: runMs };
        },
      },
    ]),
  );
  return {
    pid: process.pid,
    executors,
    onExit: () => undefined,
    close: async () => {
      await Promise.all(models.map((m) => m.close()));
    },
  };
}

export function startExecutorGroup(
  entries: ModelEntry[],
  layout: ExecutorLayout,
  tuning: SessionTuning,
): Promise<ExecutorGroup> {
  return layout === 'inline' ? inlineGroup(entries, tuning) : processGroup(entries, tuning);
}
