/**
 * Starts an executor for one model and waits until it has loaded, checked and warmed the model.
 * 'process' (the default) runs each session in a child process, so session.run() never blocks the
 * front and a crash takes down only its own model. worker_threads were ruled out by trial here:
 * terminating a worker that holds an onnxruntime-node session aborted the whole process
 * (Napi::Error) or hung (inference/README.md). 'inline' runs on the front's thread and exists only
 * so the benchmark can show what that costs.
 */
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { ModelEntry } from '../repository/load-model-repository';
import { ModelRepositoryError } from '../repository/model-repository-error';
import type { SessionTuning } from '../runtime/execution-providers';
import { InferenceError } from '../runtime/inference-error';
import { socketLink } from './executor-links';
import type { ExecutorLayout, ExecutorLink, ExecutorReply, ExecutorRequest, ModelExecutor, Tensors } from './executor-protocol';

interface Channel {
  pid: number;
  link: ExecutorLink<ExecutorRequest, ExecutorReply>;
  onExit(listener: (reason: string) => void): void;
  terminate(): Promise<void>;
}

const compiled = !__filename.endsWith('.ts');
const entryFile = join(__dirname, `executor-main${compiled ? '.js' : '.ts'}`);
// Source files need tsx's require hook in the child; a compiled build (dist/) runs plain node.
const loaderArgs = compiled ? [] : ['--require', require.resolve('tsx/cjs')];

function processChannel(tuning: SessionTuning): Channel {
  const env = { ...process.env, INFERENCE_EXECUTOR_NICE: String(tuning.executorNice ?? 10) };
  const child = spawn(process.execPath, [...loaderArgs, entryFile], { stdio: ['ignore', 'inherit', 'inherit', 'pipe'], env });
  const pipe = child.stdio[3] as Socket;
  return {
    pid: child.pid ?? -1,
    link: socketLink(pipe),
    onExit: (l) => child.once('exit', (code, signal) => l(`executor process exited (${signal ?? `code ${code}`})`)),
    terminate: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

type Waiter = { resolve(v: { outputs: Tensors; runMs: number }): void; reject(e: Error): void };

async function remoteExecutor(entry: ModelEntry, tuning: SessionTuning, channel: Channel): Promise<ModelExecutor> {
  const pending = new Map<number, Waiter>();
  let nextId = 1;
  let exitListener: ((reason: string) => void) | undefined;
  let closing = false;
  let dead: string | undefined;
  const loaded = new Promise<Extract<ExecutorReply, { type: 'loaded' }>>((resolve, reject) => {
    channel.link.onMessage((reply, tensors) => {
      if (reply.type === 'loaded') return resolve(reply);
      if (reply.type === 'load-failed') return reject(new ModelRepositoryError(entry.name, reply.message.replace(/^model "[^"]+": /, '')));
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.type === 'result') waiter?.resolve({ outputs: tensors, runMs: reply.runMs });
      else waiter?.reject(new InferenceError('INTERNAL', `model "${entry.name}" failed: ${reply.message}`));
    });
    channel.onExit((reason) => {
      dead = reason;
      reject(new ModelRepositoryError(entry.name, reason));
      for (const waiter of pending.values()) waiter.reject(new InferenceError('UNAVAILABLE', `model "${entry.name}": ${reason}`));
      pending.clear();
      if (!closing) exitListener?.(reason);
    });
  });
  channel.link.send({ type: 'load', entry, tuning });
  let ready;
  try {
    ready = await loaded;
  } catch (error) {
    closing = true;
    await channel.terminate();
    throw error;
  }
  return {
    provider: ready.provider,
    skippedProviders: ready.skipped,
    warmupMs: ready.warmupMs,
    pid: channel.pid,
    run: (inputs) => new Promise((resolve, reject) => {
      if (dead) return reject(new InferenceError('UNAVAILABLE', `model "${entry.name}": ${dead}`));
      const id = nextId++;
      pending.set(id, { resolve, reject });
      channel.link.send({ type: 'run', id }, inputs);
    }),
    onExit: (listener) => { exitListener = listener; },
    close: async () => { closing = true; await channel.terminate(); },
  };
}

/** Runs the session on the front's own thread: blocks the event loop; kept only to measure that. */
async function inlineExecutor(entry: ModelEntry, tuning: SessionTuning): Promise<ModelExecutor> {
  // Loaded here only, so the front never loads onnxruntime unless it runs models inline.
  const { openModel } = require('../runtime/open-model') as typeof import('../runtime/open-model');
  const model = await openModel(entry, tuning);
  return {
    provider: model.provider,
    skippedProviders: model.skippedProviders,
    warmupMs: model.warmupMs,
    pid: process.pid,
    run: async (inputs) => {
      const started = performance.now();
      const outputs = await model.run(inputs);
      return { outputs, runMs: performance.now() - started };
    },
    onExit: () => undefined,
    close: () => model.close(),
  };
}

export function spawnExecutor(entry: ModelEntry, layout: ExecutorLayout, tuning: SessionTuning): Promise<ModelExecutor> {
  if (layout === 'inline') return inlineExecutor(entry, tuning);
  return remoteExecutor(entry, tuning, processChannel(tuning));
}
