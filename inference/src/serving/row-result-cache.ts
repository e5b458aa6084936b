/**
 * Remembers what a model answered for one input row, keyed by the row's exact bytes, so a check
 * that sees a frame or a selfie again gets the earlier answer instead of running the model again.
 * One verification sends the same images through several checks: the frames go through liveness
 * at their upload (the face-found gate) and again with the selfie, five of them through antispoof;
 * the selfie goes through antispoof, liveness and face match side by side. Each check cuts the
 * same rows from the same bytes (decoding and cropping are deterministic), so the detector,
 * FaceMesh, the embedding and the passive-liveness model see byte-identical rows; the cache answers
 * them from the first run. The checks themselves still run whole: every score and line is computed
 * as before, only the repeated model runs are skipped.
 *
 * Rows asked for while the same row is already running wait for that run instead of queueing a
 * second one (antispoof, liveness and face match start together at the selfie). A shared run that
 * fails (its caller's deadline, a cancelled call) makes each waiter run the row itself.
 *
 * The key is the model, its served version and a SHA-256 of the row's bytes, so one applicant's
 * row can only ever be answered with that same row's output. Entries hold face landmarks and
 * embeddings: they expire after `ttlMs` from their first run and the whole cache is bounded by
 * `maxBytes` (least recently used first out). It lives in the service's memory only.
 */
import { createHash } from 'node:crypto';
import { allocate, elementCount } from '../runtime/host-tensors';
import type { HostTensor, InferOptions, ModelRunner } from '../runtime/model-runner';

export interface RowResultCacheOptions {
  /** Models whose rows are remembered; others pass straight through. */
  models: string[];
  maxBytes: number;
  ttlMs: number;
  now?: () => number;
  /** Told each request's rows by outcome (metrics). */
  count?: (model: string, outcome: RowOutcome, rows: number) => void;
}

export type RowOutcome = 'hit' | 'shared' | 'miss';

/** One row's outputs: each output without its batch dimension. */
type RowOutputs = Record<string, HostTensor>;

interface Entry {
  value: Promise<RowOutputs>;
  bytes: number;
  expiresAt: number;
}

export interface RowCacheStatistics {
  hits: number;
  /** Rows that waited for the same row already running. */
  shared: number;
  misses: number;
  entries: number;
  bytes: number;
}

export class RowResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly models: Set<string>;
  private readonly now: () => number;
  private bytes = 0;
  private readonly counts = { hits: 0, shared: 0, misses: 0 };

  private tally(model: string, outcome: RowOutcome, rows: number): void {
    if (rows === 0) return;
    this.counts[outcome === 'hit' ? 'hits' : outcome === 'shared' ? 'shared' : 'misses'] += rows;
    this.options.count?.(model, outcome, rows);
  }

  constructor(private readonly options: RowResultCacheOptions) {
    this.models = new Set(options.models);
    this.now = options.now ?? (() => Date.now());
  }

  statistics(): RowCacheStatistics {
    return { ...this.counts, entries: this.entries.size, bytes: this.bytes };
  }

  /** A runner that answers remembered rows of cached models and runs only the others through `runner`. */
  wrap(runner: ModelRunner): ModelRunner {
    return {
      infer: (model, inputs, options) => this.infer(runner, model, inputs, options),
      config: (model) => runner.config(model),
    };
  }

  private async infer(
    runner: ModelRunner,
    model: string,
    inputs: Record<string, HostTensor>,
    options?: InferOptions,
  ): Promise<Record<string, HostTensor>> {
    if (!this.models.has(model) || this.options.maxBytes <= 0) return runner.infer(model, inputs, options);
    const prefix = `${model}@${runner.config(model).version}`;
    const keys = rowKeys(prefix, inputs);
    const rows = new Array<Promise<RowOutputs>>(keys.length);
    const missing: number[] = [];
    const repeats: Array<[number, number]> = [];
    let hits = 0;
    let shared = 0;
    const now = this.now();
    keys.forEach((key, i) => {
      const entry = this.entries.get(key);
      if (entry && entry.expiresAt > now) {
        this.entries.delete(key);
        this.entries.set(key, entry);
        rows[i] = entry.value;
        if (entry.bytes > 0) hits += 1;
        else shared += 1;
        return;
      }
      if (entry) this.remove(key);
      // A row repeated within this very request runs once.
      const first = keys.indexOf(key);
      if (first < i) repeats.push([i, first]);
      else missing.push(i);
    });
    this.tally(model, 'hit', hits);
    this.tally(model, 'shared', shared);
    this.tally(model, 'miss', missing.length);
    if (missing.length > 0) {
      const run = runner.infer(model, pickRows(inputs, missing), options).then((out) => splitRows(out, missing.length));
      missing.forEach((i, n) => {
        const value = run.then((all) => all[n]);
        rows[i] = value;
        this.remember(keys[i], value);
      });
    }
    for (const [i, first] of repeats) rows[i] = rows[first]!;
    let answered: RowOutputs[];
    try {
      answered = await Promise.all(rows);
    } catch (error) {
      // Our own run failed: that is this caller's error. Someone else's shared run failed: run those rows ourselves.
      const own = await Promise.allSettled(missing.map((i) => rows[i]));
      if (own.some((r) => r.status === 'rejected')) throw error;
      const settled = await Promise.allSettled(rows);
      const retry = settled.flatMap((s, i) => (s.status === 'rejected' ? [i] : []));
      const again = splitRows(await runner.infer(model, pickRows(inputs, retry), options), retry.length);
      answered = settled.map((s, i) => (s.status === 'fulfilled' ? s.value : again[retry.indexOf(i)]));
    }
    return stackRows(answered);
  }

  private remember(key: string, value: Promise<RowOutputs>): void {
    const entry: Entry = { value, bytes: 0, expiresAt: this.now() + this.options.ttlMs };
    this.entries.set(key, entry);
    value.then(
      (outputs) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = Object.values(outputs).reduce((n, t) => n + t.data.byteLength, 0) + key.length;
        this.bytes += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  /** Oldest-used first, until under the byte budget; expired entries on the way go too. */
  private evict(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.options.maxBytes && entry.expiresAt > now) break;
      if (entry.bytes === 0 && entry.expiresAt > now) continue;
      this.remove(key);
    }
  }
}

function rowKeys(prefix: string, inputs: Record<string, HostTensor>): string[] {
  const names = Object.keys(inputs).sort();
  const rows = inputs[names[0]].dims[0];
  return Array.from({ length: rows }, (_, row) => {
    const hash = createHash('sha256');
    for (const name of names) {
      const t = inputs[name];
      const size = t.data.byteLength / t.dims[0];
      hash.update(`${name}:${t.dtype}:${t.dims.slice(1).join('x')};`);
      hash.update(new Uint8Array(t.data.buffer, t.data.byteOffset + row * size, size));
    }
    return `${prefix}:${hash.digest('base64')}`;
  });
}

function pickRows(inputs: Record<string, HostTensor>, rows: number[]): Record<string, HostTensor> {
  if (rows.length === inputs[Object.keys(inputs)[0]].dims[0] && rows.every((r, i) => r === i)) return inputs;
  return Object.fromEntries(
    Object.entries(inputs).map(([name, t]) => {
      const size = elementCount(t.dims.slice(1));
      const data = allocate(t.dtype, rows.length * size);
      rows.forEach((row, n) => data.set(t.data.subarray(row * size, (row + 1) * size) as never, n * size));
      return [name, { dtype: t.dtype, dims: [rows.length, ...t.dims.slice(1)], data }];
    }),
  );
}

function splitRows(outputs: Record<string, HostTensor>, count: number): RowOutputs[] {
  const rows: RowOutputs[] = Array.from({ length: count }, () => ({}));
  for (const [name, t] of Object.entries(outputs)) {
    if (t.dims[0] !== count) throw new Error(`output "${name}" has ${t.dims[0]} rows for ${count} asked`);
    const size = elementCount(t.dims.slice(1));
    rows.forEach((row, n) => {
      row[name] = { dtype: t.dtype, dims: t.dims.slice(1), data: t.data.slice(n * size, (n + 1) * size) };
    });
  }
  return rows;
}

function stackRows(rows: RowOutputs[]): Record<string, HostTensor> {
  const out: Record<string, HostTensor> = {};
  for (const [name, first] of Object.entries(rows[0])) {
    const size = first.data.length;
    const data = allocate(first.dtype, rows.length * size);
    rows.forEach((row, n) => data.set(row[name].data as never, n * size));
    out[name] = { dtype: first.dtype, dims: [rows.length, ...first.dims], data };
  }
  return out;
}
