/**
 * Loads the whole repository behind executor processes and batchers and serves it as a
 * ModelRunner. Every model must load, match its graph and warm up before the host exists
 * (start-up fails otherwise, naming the model). An executor process that dies makes its models
 * unavailable until it has been restarted and has warmed them again.
 */
import { shapeKey } from '../batching/batch-tensors';
import type { ExecutorGroup, ExecutorLayout } from '../executor/executor-protocol';
import { startExecutorGroup } from '../executor/spawn-executor';
import type { InferenceMetrics } from '../metrics/inference-metrics';
import { loadModelRepository } from '../repository/load-model-repository';
import type { SessionTuning } from '../runtime/execution-providers';
import { InferenceError } from '../runtime/inference-error';
import type { HostTensor, InferOptions, ModelConfig, ModelRunner } from '../runtime/model-runner';
import { validateRequest } from '../runtime/validate-request';
import { deviceName, HostedModel } from './hosted-model';

const describeProfile = (config: ModelConfig): string => {
  const { preferred_batch_size: preferred, max_queue_delay_microseconds: delay } = config.dynamic_batching;
  return `${config.device} (max ${config.max_batch_size}, preferred [${(preferred ?? []).join(',')}], delay ${delay} µs)`;
};

export interface ModelHostOptions {
  repository: string;
  /** Serve only these models; default every model in the repository. */
  models?: string[];
  layout?: ExecutorLayout;
  /** How many executor processes share the models ('per-model': one each); default 1. */
  executorProcesses?: number | 'per-model';
  /** false runs one request per session.run (the benchmark's baseline). */
  dynamicBatching?: boolean;
  tuning?: SessionTuning;
  metrics: InferenceMetrics;
  log?: (line: string) => void;
}

export interface HostInferOptions extends InferOptions {
  cancelled?: () => boolean;
  /** Lower runs sooner (the batcher's and the executor's order); default the request's arrival. */
  rank?: number;
}

export interface ModelHost extends ModelRunner {
  infer(
    model: string,
    inputs: Record<string, HostTensor>,
    options?: HostInferOptions,
  ): Promise<Record<string, HostTensor>>;
  models(): HostedModel[];
  /** NOT_FOUND unless `name` is served (and `version`, when given, is its served version). */
  find(name: string, version?: string): HostedModel;
  allReady(): boolean;
  onReadinessChange(listener: () => void): void;
  close(): Promise<void>;
}

/** Splits models into executor processes: all in one, one each, or round-robin over N. */
export function groupModels<T>(entries: T[], processes: number | 'per-model'): T[][] {
  const count = processes === 'per-model' ? entries.length : Math.max(1, Math.min(processes, entries.length));
  const groups: T[][] = Array.from({ length: count }, () => []);
  entries.forEach((entry, i) => groups[i % count].push(entry));
  return groups;
}

export async function startModelHost(options: ModelHostOptions): Promise<ModelHost> {
  const log = options.log ?? (() => undefined);
  const layout = options.layout ?? 'process';
  const tuning = options.tuning ?? {};
  const device = tuning.device ?? 'cpu';
  const entries = await loadModelRepository(options.repository, {
    only: options.models,
    device: device === 'cpu' ? 'cpu' : 'cuda',
  });
  const hosted: HostedModel[] = [];
  const groups: ExecutorGroup[] = [];
  const listeners: Array<() => void> = [];
  let closed = false;
  const notify = (): void => listeners.forEach((l) => l());

  const watch = (group: ExecutorGroup, models: HostedModel[], slot: number): void => {
    group.onExit((reason) => {
      if (closed) return;
      log(`${reason}; models ${models.map((m) => m.entry.name).join(', ')} unavailable while it restarts`);
      models.forEach((m) => m.markReady(false));
      notify();
      void restart(models, slot, 1000);
    });
  };
  const restart = async (models: HostedModel[], slot: number, delayMs: number): Promise<void> => {
    await new Promise((r) => setTimeout(r, delayMs));
    if (closed) return;
    try {
      const group = await startExecutorGroup(
        models.map((m) => m.entry),
        layout,
        tuning,
      );
      groups[slot] = group;
      for (const model of models) {
        model.executor = group.executors.get(model.entry.name)!;
        model.markReady(true);
      }
      watch(group, models, slot);
      notify();
      log(`executor restarted (pid ${group.pid}): ${models.map((m) => m.entry.name).join(', ')} ready`);
    } catch (error) {
      log(`executor restart failed (${(error as Error).message}); retrying`);
      void restart(models, slot, Math.min(delayMs * 2, 30_000));
    }
  };

  try {
    for (const groupEntries of groupModels(entries, options.executorProcesses ?? 1)) {
      const group = await startExecutorGroup(groupEntries, layout, tuning);
      const slot = groups.push(group) - 1;
      const models = groupEntries.map(
        (entry) =>
          new HostedModel(entry, group.executors.get(entry.name)!, options.metrics, options.dynamicBatching ?? true),
      );
      hosted.push(...models);
      watch(group, models, slot);
      for (const model of models) {
        for (const skipped of model.executor.skippedProviders) {
          log(
            `WARNING model ${model.entry.name}: ${skipped.provider} did not open (${skipped.reason}); running on cpu because INFERENCE_DEVICE=auto`,
          );
        }
        model.markReady(true);
        log(
          `model ${model.entry.name} v${model.entry.version}: ready on provider ${model.executor.provider}, device ${deviceName(model.executor.provider)}, batch profile ${describeProfile(model.config)} (warm-up ${model.executor.warmupMs.toFixed(0)} ms, executor pid ${group.pid})`,
        );
      }
    }
  } catch (error) {
    closed = true;
    await Promise.all(groups.map((g) => g.close()));
    throw error;
  }
  hosted.sort((a, b) => a.entry.name.localeCompare(b.entry.name));
  const byName = new Map(hosted.map((m) => [m.entry.name, m]));

  const find = (name: string, version?: string): HostedModel => {
    const model = byName.get(name);
    if (!model) throw new InferenceError('NOT_FOUND', `no model "${name}" (served: ${[...byName.keys()].join(', ')})`);
    if (version && version !== String(model.entry.version)) {
      throw new InferenceError('NOT_FOUND', `model "${name}" serves version ${model.entry.version}, not ${version}`);
    }
    return model;
  };

  return {
    async infer(name, inputs, infer: HostInferOptions = {}) {
      const model = find(name);
      let rows: number;
      try {
        rows = validateRequest(model.config, inputs);
        if (infer.deadlineMs !== undefined && Date.now() >= infer.deadlineMs)
          throw new InferenceError('DEADLINE_EXCEEDED', 'deadline passed before the request was queued');
      } catch (error) {
        model.recordRefused(error);
        throw error;
      }
      return model.infer(inputs, rows, shapeKey(inputs), infer);
    },
    config: (name: string): ModelConfig => find(name).config,
    models: () => hosted,
    find,
    allReady: () => hosted.every((m) => m.ready),
    onReadinessChange: (listener) => {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      for (const model of hosted) {
        model.batcher.close();
        model.markReady(false);
      }
      await Promise.all(groups.map((g) => g.close()));
    },
  };
}
