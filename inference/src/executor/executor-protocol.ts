/**
 * Messages between the gRPC front and a model executor (a child process that owns one ONNX
 * session). Headers are small JSON objects; tensors travel beside them as raw bytes, never JSON.
 */
import type { ModelEntry } from '../repository/load-model-repository';
import type { SessionTuning } from '../runtime/execution-providers';
import type { HostTensor } from '../runtime/model-runner';

export type Tensors = Record<string, HostTensor>;

export type ExecutorRequest =
  | { type: 'load'; entry: ModelEntry; tuning: SessionTuning }
  | { type: 'run'; id: number };

export type ExecutorReply =
  | { type: 'loaded'; provider: 'cuda' | 'cpu'; skipped: Array<{ provider: 'cuda' | 'cpu'; reason: string }>; warmupMs: number }
  | { type: 'load-failed'; message: string }
  | { type: 'result'; id: number; runMs: number }
  | { type: 'run-failed'; id: number; message: string };

/** Either end of the pipe. */
export interface ExecutorLink<Out, In> {
  send(header: Out, tensors?: Tensors): void;
  onMessage(listener: (header: In, tensors: Tensors) => void): void;
}

/** What the front needs from an executor, whatever its layout. */
export interface ModelExecutor {
  readonly provider: 'cuda' | 'cpu';
  readonly skippedProviders: Array<{ provider: 'cuda' | 'cpu'; reason: string }>;
  readonly warmupMs: number;
  /** The executor's process id (the front's own for 'inline'): for operators and crash tests. */
  readonly pid: number;
  /** Runs one batch; runMs is the time inside session.run as the executor measured it. */
  run(inputs: Tensors): Promise<{ outputs: Tensors; runMs: number }>;
  /** Called once if the executor dies; the front marks the model unavailable. */
  onExit(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

export type ExecutorLayout = 'process' | 'inline';

/** The child's end of the frame pipe (see spawn-executor.ts). */
export const EXECUTOR_PIPE_FD = 3;
