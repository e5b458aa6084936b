/**
 * Messages between the gRPC front and an executor process (a child that owns the ONNX sessions of
 * one or more models). Headers are small JSON objects; tensors travel beside them as raw bytes.
 */
import type { ModelEntry } from '../repository/load-model-repository';
import type { ProviderName, SessionTuning, SkippedProvider } from '../runtime/execution-providers';
import type { HostTensor } from '../runtime/model-runner';

export type Tensors = Record<string, HostTensor>;

export type ExecutorRequest =
  | { type: 'load'; entry: ModelEntry; tuning: SessionTuning }
  /** rank: lower runs first among the runs waiting in the executor (the batch's most urgent request). */
  | { type: 'run'; id: number; model: string; rank: number };

export type ExecutorReply =
  | { type: 'loaded'; model: string; provider: ProviderName; skipped: SkippedProvider[]; warmupMs: number }
  /** cudaUnavailable: the session did not open on CUDA; the front adds the reason from this process's stderr. */
  | { type: 'load-failed'; model: string; message: string; cudaUnavailable?: boolean }
  | { type: 'result'; id: number; runMs: number; cpuMs: number }
  | { type: 'run-failed'; id: number; message: string };

/** Either end of the pipe. */
export interface ExecutorLink<Out, In> {
  /** `tensors` as a list: the requests of one batch, stacked along the batch dimension on the wire. */
  send(header: Out, tensors?: Tensors | Tensors[]): void;
  onMessage(listener: (header: In, tensors: Tensors) => void): void;
}

/** One model inside an executor group, whatever the layout. */
export interface ModelExecutor {
  readonly provider: ProviderName;
  /** Only under INFERENCE_DEVICE=auto: CUDA, with why it did not open (from the executor's stderr). */
  readonly skippedProviders: SkippedProvider[];
  readonly warmupMs: number;
  /** The process running it (the front's own for 'inline'): for operators and crash tests. */
  readonly pid: number;
  /**
   * Runs one batch, given as its requests' inputs (stacked by the executor, so the front never
   * copies them into one buffer); runMs is the time inside session.run as the executor measured it,
   * cpuMs the CPU its process used meanwhile (onnxruntime's threads included; runs are serial there).
   * Runs of a group's models that wait together go lowest `rank` first (the front's clock).
   */
  run(requests: Tensors[], rank: number): Promise<{ outputs: Tensors; runMs: number; cpuMs: number }>;
}

/** The models one executor process holds; they live, die and restart together. */
export interface ExecutorGroup {
  readonly pid: number;
  readonly executors: Map<string, ModelExecutor>;
  /** Called once if the process dies; the front marks its models unavailable and restarts it. */
  onExit(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

export type ExecutorLayout = 'process' | 'inline';

/** The child's end of the frame pipe (see spawn-executor.ts). */
export const EXECUTOR_PIPE_FD = 3;
