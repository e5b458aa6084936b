/**
 * Entry point of an executor child process: owns the ONNX sessions of the models the front
 * assigned to it, so session.run() blocks this process and never the gRPC front's event loop.
 * Runs execute one at a time, lowest rank first (ranked-serial-queue.ts); each already uses every
 * core through onnxruntime's threads.
 */
import { Socket } from 'node:net';
import { setPriority } from 'node:os';
import { CudaUnavailableError } from '../runtime/execution-providers';
import { openModel, type OpenModel } from '../runtime/open-model';
import { socketLink } from './executor-links';
import { RankedSerialQueue } from './ranked-serial-queue';
import {
  EXECUTOR_PIPE_FD,
  type ExecutorLink,
  type ExecutorReply,
  type ExecutorRequest,
  type Tensors,
} from './executor-protocol';

function connect(): ExecutorLink<ExecutorReply, ExecutorRequest> {
  const socket = new Socket({ fd: EXECUTOR_PIPE_FD, readable: true, writable: true });
  // The front going away (even by SIGKILL) closes the pipe: leave with it, never orphaned.
  socket.on('close', () => process.exit(0));
  socket.on('error', () => process.exit(0));
  return socketLink(socket);
}

// 0 unless configured: a nice executor loses the CPU to every process on a shared host (service-env.ts).
setPriority(0, Number(process.env.INFERENCE_EXECUTOR_NICE ?? 0));

const link = connect();
const models = new Map<string, OpenModel>();

async function handle(message: ExecutorRequest, tensors: Tensors): Promise<void> {
  if (message.type === 'load') {
    const name = message.entry.name;
    try {
      const model = await openModel(message.entry, message.tuning);
      models.set(name, model);
      link.send({
        type: 'loaded',
        model: name,
        provider: model.provider,
        skipped: model.skippedProviders,
        warmupMs: model.warmupMs,
      });
    } catch (error) {
      if (error instanceof CudaUnavailableError)
        link.send({ type: 'load-failed', model: name, message: error.reason, cudaUnavailable: true });
      else link.send({ type: 'load-failed', model: name, message: (error as Error).message });
    }
    return;
  }
  const model = models.get(message.model);
  if (!model)
    return link.send({
      type: 'run-failed',
      id: message.id,
      message: `model ${message.model} not loaded here`,
    });
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    const outputs = await model.run(tensors);
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    link.send({ type: 'result', id: message.id, runMs: performance.now() - started, cpuMs }, outputs);
  } catch (error) {
    link.send({ type: 'run-failed', id: message.id, message: (error as Error).message });
  }
}

// One message at a time: session.run is synchronous (onnxruntime-node defers it to setImmediate),
// so runs never overlapped anyway, and one at a time each run's CPU is its own. Loads go first:
// no run can be waiting for a model that is not loaded yet.
const queue = new RankedSerialQueue();
link.onMessage((message, tensors) => {
  queue.push(message.type === 'load' ? -Infinity : message.rank, () => handle(message, tensors));
});
