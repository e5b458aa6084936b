/**
 * Turns a checked repository entry into a runnable model: opens the session on the requested
 * device, picks that device's batch profile, holds the config to the graph, and warms up every
 * batch size the profile names. A model that fails any step never becomes runnable, and the error
 * names it.
 */
import type { ModelEntry } from '../repository/load-model-repository';
import type { ModelConfig } from '../repository/model-config';
import { ModelRepositoryError } from '../repository/model-repository-error';
import { servedConfig } from '../repository/served-config';
import {
  CudaUnavailableError,
  openOrtSession,
  openSessionOnDevice,
  type ProviderName,
  type SessionOpener,
  type SessionTuning,
  type SkippedProvider,
} from './execution-providers';
import { checkGraphContract } from './graph-contract';
import { fromOrtTensor, toOrtTensor } from './host-tensors';
import type { HostTensor } from './model-runner';
import { warmupInputs } from './warmup-inputs';

export interface OpenModel {
  entry: ModelEntry;
  /** As served on `provider`: its batch profile's max_batch_size and dynamic_batching. */
  config: ModelConfig;
  provider: ProviderName;
  skippedProviders: SkippedProvider[];
  warmupMs: number;
  /** Runs one (already validated, possibly batched) request synchronously on this thread. */
  run(inputs: Record<string, HostTensor>): Promise<Record<string, HostTensor>>;
  close(): Promise<void>;
}

/**
 * A model served in fp16 opens its fp16 file on CUDA and its fp32 file on CPU (the CPU is reached
 * only as INFERENCE_DEVICE=auto's fallback; the repository refuses fp16 on a cpu service).
 */
function withPrecision(entry: ModelEntry, open: SessionOpener): SessionOpener {
  const fp16Path = entry.fp16Path;
  if (!fp16Path) return open;
  return (modelPath, provider, tuning) => open(provider === 'cuda' ? fp16Path : modelPath, provider, tuning);
}

export async function openModel(
  entry: ModelEntry,
  tuning: SessionTuning = {},
  open: SessionOpener = openOrtSession,
): Promise<OpenModel> {
  let opened;
  try {
    opened = await openSessionOnDevice(entry.modelPath, tuning, withPrecision(entry, open));
  } catch (error) {
    if (error instanceof CudaUnavailableError) throw error;
    throw new ModelRepositoryError(
      entry.name,
      `could not open the model on ${tuning.device === 'auto' ? 'cpu (after CUDA)' : (tuning.device ?? 'cpu')}: ${(error as Error).message}`,
    );
  }
  const { session } = opened;
  const config = servedConfig(entry.declared, opened.provider);
  const problems = checkGraphContract(config, session);
  if (problems.length > 0) {
    await session.release();
    throw new ModelRepositoryError(entry.name, `config.json does not match the ONNX graph: ${problems.join('; ')}`);
  }
  const outputNames = config.outputs.map((o) => o.name);
  const run = async (inputs: Record<string, HostTensor>): Promise<Record<string, HostTensor>> => {
    const feeds = Object.fromEntries(Object.entries(inputs).map(([name, t]) => [name, toOrtTensor(t)]));
    const results = await session.run(feeds, outputNames);
    return Object.fromEntries(outputNames.map((name) => [name, fromOrtTensor(name, results[name])]));
  };
  const started = performance.now();
  const warmupSizes = entry.declared.batching[opened.provider].warmup_batch_sizes;
  for (const batchSize of warmupSizes) {
    try {
      await run(warmupInputs(config, batchSize));
    } catch (error) {
      await session.release();
      throw new ModelRepositoryError(
        entry.name,
        `warm-up run at batch ${batchSize} failed: ${(error as Error).message}`,
      );
    }
  }
  // The start log prints each skipped provider as a warning; an fp16 model also loses its precision.
  const skippedProviders =
    entry.fp16Path && opened.provider === 'cpu'
      ? opened.skipped.map((s) => ({
          ...s,
          reason: `${s.reason}; precision fp16 is CUDA only, so the fp32 file ${entry.declared.file} serves on cpu`,
        }))
      : opened.skipped;
  return {
    entry,
    config,
    provider: opened.provider,
    skippedProviders,
    warmupMs: performance.now() - started,
    run,
    close: () => session.release(),
  };
}
