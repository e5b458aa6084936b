/**
 * Bare onnxruntime-node: the same model files and session options as the service, session.run()
 * called back to back in the benchmark process. The yardstick for the service's overhead.
 */
import * as ort from 'onnxruntime-node';
import type { OpenModel } from '../../inference/src/runtime/open-model';
import type { HostTensor } from '../../inference/src/runtime/model-runner';
import { median, summarise, type LatencySummary } from '../../scripts/test-support/percentiles';

export interface BareCell {
  batch_size: number;
  latency: LatencySummary;
  rows_per_s: number;
}

export interface Samples {
  latencies: number[];
  rows: number;
  elapsedMs: number;
}

export const emptySamples = (): Samples => ({ latencies: [], rows: 0, elapsedMs: 0 });

/** Runs back to back for `durationMs` (at least `minIterations`), adding to `into`. */
export async function bareSlice(
  model: OpenModel,
  inputs: Record<string, HostTensor>,
  rows: number,
  durationMs: number,
  minIterations: number,
  into: Samples,
): Promise<void> {
  const started = performance.now();
  let runs = 0;
  while (runs < minIterations || performance.now() - started < durationMs) {
    const t = performance.now();
    await model.run(inputs);
    into.latencies.push(performance.now() - t);
    into.rows += rows;
    runs += 1;
  }
  into.elapsedMs += performance.now() - started;
}

export function bareCell(batch: number, samples: Samples): BareCell {
  return {
    batch_size: batch,
    latency: summarise(samples.latencies),
    rows_per_s: round((samples.rows * 1000) / samples.elapsedMs),
  };
}

export const round = (v: number, digits = 1): number => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * Plain onnxruntime-node on the served model file, in this process, with the executor's intra-op
 * thread count: the session options a user of the library could pick without the service, each a
 * candidate for the fastest bare run. `service` is exactly the executor's options (spinning off);
 * `spin during runs` lets the intra-op threads spin only while a run lasts; `ORT defaults` spins as
 * onnxruntime does unless told otherwise. Inputs are made once and outputs are not copied out.
 */
export const PLAIN_VARIANTS: Record<string, Record<string, string>> = {
  service: { 'session.intra_op.allow_spinning': '0' },
  'spin during runs': { 'session.intra_op.allow_spinning': '1', 'session.force_spinning_stop': '1' },
  'ORT defaults': {},
};

export interface PlainSession {
  variant: string;
  run: () => Promise<unknown>;
  close: () => Promise<void>;
}

export async function openPlainSessions(
  modelPath: string,
  inputs: Record<string, HostTensor>,
  intraOpThreads: number | undefined,
): Promise<PlainSession[]> {
  const feeds = Object.fromEntries(
    Object.entries(inputs).map(([name, t]) => [name, new ort.Tensor(t.dtype, t.data, t.dims)]),
  );
  return Promise.all(
    Object.entries(PLAIN_VARIANTS).map(async ([variant, config]) => {
      const session = await ort.InferenceSession.create(modelPath, {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        logSeverityLevel: 3,
        ...(intraOpThreads ? { intraOpNumThreads: intraOpThreads } : {}),
        extra: {
          session: Object.fromEntries(Object.entries(config).map(([k, v]) => [k.replace(/^session\./, ''), v])),
        },
      });
      const run = () => session.run(feeds);
      for (let i = 0; i < 5; i++) await run();
      return { variant, run, close: () => session.release() };
    }),
  );
}

/** p50 ms of `run` called back to back for `durationMs` (at least 5 runs), with the run rate. */
export async function plainSlice(
  run: () => Promise<unknown>,
  durationMs: number,
): Promise<{ p50: number; perS: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  while (latencies.length < 5 || performance.now() - started < durationMs) {
    const t = performance.now();
    await run();
    latencies.push(performance.now() - t);
  }
  return {
    p50: round(median(latencies) ?? NaN, 2),
    perS: round((latencies.length * 1000) / (performance.now() - started)),
  };
}
