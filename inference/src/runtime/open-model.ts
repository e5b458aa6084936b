/**
 * Turns a checked repository entry into a runnable model: opens the session on the first working
 * provider, holds the config to the graph, and runs the warm-up. A model that fails any step never
 * becomes runnable, and the error names it.
 */
import type { ModelEntry } from '../repository/load-model-repository';
import { ModelRepositoryError } from '../repository/model-repository-error';
import { openSessionWithFallback, type ProviderName, type SessionTuning } from './execution-providers';
import { checkGraphContract } from './graph-contract';
import { fromOrtTensor, toOrtTensor } from './host-tensors';
import type { HostTensor } from './model-runner';
import { warmupInputs } from './warmup-inputs';

export interface OpenModel {
  entry: ModelEntry;
  provider: ProviderName;
  skippedProviders: Array<{ provider: ProviderName; reason: string }>;
  warmupMs: number;
  /** Runs one (already validated, possibly batched) request synchronously on this thread. */
  run(inputs: Record<string, HostTensor>): Promise<Record<string, HostTensor>>;
  close(): Promise<void>;
}

export async function openModel(entry: ModelEntry, tuning: SessionTuning = {}): Promise<OpenModel> {
  const { config } = entry;
  let opened;
  try {
    opened = await openSessionWithFallback(entry.modelPath, config.execution_providers, tuning);
  } catch (error) {
    throw new ModelRepositoryError(entry.name, (error as Error).message);
  }
  const { session } = opened;
  const problems = checkGraphContract(config, session);
  if (problems.length > 0) {
    await session.release();
    throw new ModelRepositoryError(entry.name, `config.json does not match the ONNX graph: ${problems.join('; ')}`);
  }
  const outputNames = config.outputs.map((o) => o.name);
  const run = async (inputs: Record<string, HostTensor>): Promise<Record<string, HostTensor>> => {
    const feeds = Object.fromEntries(Object.entries(inputs).map(([name, t]) => [name, toOrtTensor(t)]));
    const results = await session.run(feeds, outputNames);
    return Object.fromEntries(outputNames.map((name) => [name, fromOrtTensor(name, results[name]!)]));
  };
  const started = performance.now();
  try {
    await run(warmupInputs(config));
  } catch (error) {
    await session.release();
    throw new ModelRepositoryError(entry.name, `warm-up run failed: ${(error as Error).message}`);
  }
  return {
    entry,
    provider: opened.provider,
    skippedProviders: opened.skipped,
    warmupMs: performance.now() - started,
    run,
    close: () => session.release(),
  };
}
