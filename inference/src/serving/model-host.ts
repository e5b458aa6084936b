/**
 * Loads the whole repository behind executors and batchers and serves it as a ModelRunner. Every
 * model must load, match its graph and warm up before the host exists (start-up fails otherwise,
 * naming the model). An executor that dies later makes only its model unavailable while it is
 * restarted.
 */
import { shapeKey } from '../batching/batch-tensors';
import type { ExecutorLayout } from '../executor/executor-protocol';
import { spawnExecutor } from '../executor/spawn-executor';
import type { InferenceMetrics } from '../metrics/inference-metrics';
import { loadModelRepository, type ModelEntry } from '../repository/load-model-repository';
import type { SessionTuning } from '../runtime/execution-providers';
import { InferenceError } from '../runtime/inference-error';
import type { HostTensor, InferOptions, ModelConfig, ModelRunner } from '../runtime/model-runner';
import { validateRequest } from '../runtime/validate-request';
import { HostedModel } from './hosted-model';

export interface ModelHostOptions {
  repository: string;
  /** Serve only these models; default every model in the repository. */
  models?: string[];
  layout?: ExecutorLayout;
  /** false runs one request per session.run (the benchmark's baseline). */
  dynamicBatching?: boolean;
  tuning?: SessionTuning;
  metrics: InferenceMetrics;
  log?: (line: string) => void;
}

export interface HostInferOptions extends InferOptions {
  cancelled?: () => boolean;
}

export interface ModelHost extends ModelRunner {
  infer(model: string, inputs: Record<string, HostTensor>, options?: HostInferOptions): Promise<Record<string, HostTensor>>;
  models(): HostedModel[];
  /** NOT_FOUND unless `name` is served (and `version`, when given, is its served version). */
  find(name: string, version?: string): HostedModel;
  allReady(): boolean;
  onReadinessChange(listener: () => void): void;
  close(): Promise<void>;
}

export async function startModelHost(options: ModelHostOptions): Promise<ModelHost> {
  const log = options.log ?? (() => undefined);
  const layout = options.layout ?? 'process';
  const tuning = options.tuning ?? {};
  const entries = await loadModelRepository(options.repository, { only: options.models });
  const hosted: HostedModel[] = [];
  const listeners: Array<() => void> = [];
  let closed = false;
  const notify = (): void => listeners.forEach((l) => l());

  const watch = (model: HostedModel): void => {
    model.executor.onExit((reason) => {
      if (closed) return;
      log(`model ${model.entry.name}: ${reason}; restarting its executor`);
      model.markReady(false);
      notify();
      void restart(model, 1000);
    });
  };
  const restart = async (model: HostedModel, delayMs: number): Promise<void> => {
    await new Promise((r) => setTimeout(r, delayMs));
    if (closed) return;
    try {
      model.executor = await spawnExecutor(model.entry, layout, tuning);
      watch(model);
      model.markReady(true);
      notify();
      log(`model ${model.entry.name}: executor restarted`);
    } catch (error) {
      log(`model ${model.entry.name}: restart failed (${(error as Error).message})`);
      void restart(model, Math.min(delayMs * 2, 30_000));
    }
  };

  const open = async (entry: ModelEntry): Promise<void> => {
    const executor = await spawnExecutor(entry, layout, tuning);
    const model = new HostedModel(entry, executor, options.metrics, options.dynamicBatching ?? true);
    hosted.push(model);
    watch(model);
    model.markReady(true);
    log(`model ${entry.name} v${entry.version}: ready on ${executor.provider} (warm-up ${executor.warmupMs.toFixed(0)} ms)`);
  };
  try {
    // Two at a time: start-up is bound by ORT's graph optimisation, and the machine may have 2 cores.
    for (let i = 0; i < entries.length; i += 2) await Promise.all(entries.slice(i, i + 2).map(open));
  } catch (error) {
    closed = true;
    await Promise.all(hosted.map((m) => m.executor.close()));
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
        if (infer.deadlineMs !== undefined && Date.now() >= infer.deadlineMs) throw new InferenceError('DEADLINE_EXCEEDED', 'deadline passed before the request was queued');
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
    onReadinessChange: (listener) => { listeners.push(listener); },
    async close() {
      closed = true;
      for (const model of hosted) {
        model.batcher.close();
        model.markReady(false);
      }
      await Promise.all(hosted.map((m) => m.executor.close()));
    },
  };
}
