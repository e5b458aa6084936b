/**
 * `npm run bench:inference [-- --quick] [--models a,b] [--load-models a,b]`: bare onnxruntime-node
 * vs the gRPC service on the same models and batch sizes, 1/8/32 concurrent clients with dynamic
 * batching on and off, the executor layout comparison, and memory with every model loaded.
 * Writes benchmarks/results/inference.{json,svg,md}; see benchmarks/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createInferenceClient } from '../../inference/src/client/inference-client';
import { tooLargeForRequest } from './bench-inputs';
import { parseBenchOptions } from './bench-options';
import { compareLoad, latencyPhase, sameBatchPhase, type Target } from './bench-phases';
import { BENCH_MAX_BATCH, prepareBenchRepository } from './bench-repository';
import { summarise, TARGETS, verdicts, type ModelResult } from './bench-summary';
import { measureMemory } from './memory-phase';
import { overheadPhase, type ComparedService } from './overhead-phase';
import { renderOverhead } from './overhead-table';
import { createProgress } from './progress';
import { renderChart } from './results-chart';
import { renderTable } from './results-table';
import { startInferenceProcess } from '../../scripts/test-support/inference-process';

async function target(repository: string, env: Record<string, string>): Promise<Target> {
  const service = await startInferenceProcess(repository, env);
  return { service, client: createInferenceClient({ address: service.address }) };
}

async function stop(...targets: Target[]): Promise<void> {
  for (const t of targets) {
    t.client.close();
    await t.service.stop();
  }
}

/** The per-request overhead against bare onnxruntime, every model, on the declared repository. */
async function overheadOnly(options: ReturnType<typeof parseBenchOptions>): Promise<void> {
  const loadAvgStart = loadavg();
  const { entries } = await prepareBenchRepository(options.repository, options.models);
  const progress = createProgress(entries.length);
  const only: Record<string, string> = options.models ? { INFERENCE_MODELS: options.models.join(',') } : {};
  const services: ComparedService[] = [{ label: 'this tree', target: await target(options.repository, only) }];
  if (options.baseline) {
    const service = await startInferenceProcess(resolve(options.repository), only, resolve(options.baseline));
    services.push({
      label: `baseline ${options.baseline}`,
      target: { service, client: createInferenceClient({ address: service.address }) },
    });
  }
  if (options.variant) {
    const [key, value] = options.variant.split('=') as [string, string];
    services.push({
      label: options.variant,
      target: await target(options.repository, { ...only, [key]: value }),
    });
  }
  const results = [];
  try {
    for (const entry of entries) {
      results.push(await overheadPhase(entry, services, options.rounds, options.quick ? 1500 : 3000, progress));
      const s = results.at(-1)!.summary['this tree'];
      progress.step(
        `${entry.name}: 1 client / bare ${s.one_client_vs_bare}, 32 clients / bare ${s.clients_32_vs_bare}`,
      );
    }
  } finally {
    await stop(...services.map((s) => s.target));
  }
  progress.finish();
  const header = `${new Date().toISOString()} · ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}) · load average ${loadAvgStart.map((l) => l.toFixed(1)).join('/')} at start, ${loadavg()
    .map((l) => l.toFixed(1))
    .join('/')} at end · ${options.rounds} rounds`;
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(
    join(options.outDir, 'inference-overhead.json'),
    `${JSON.stringify({ generated_at: new Date().toISOString(), load_average_start: loadAvgStart, load_average_end: loadavg(), models: results }, null, 2)}\n`,
  );
  writeFileSync(join(options.outDir, 'inference-overhead.md'), renderOverhead(results, header));
  console.log(renderOverhead(results, header));
}

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  if (options.overhead) return overheadOnly(options);
  const loadAvgStart = loadavg();
  const { root, entries } = await prepareBenchRepository(options.repository, options.models);
  const loadModels = options.loadModels.filter((m) => entries.some((e) => e.name === m));
  const layoutModel = loadModels.includes('face-embedding') ? 'face-embedding' : loadModels[0];
  const results: ModelResult[] = entries.map((e) => ({
    model: e.name,
    max_batch_size_declared: e.config.max_batch_size,
    bare: [],
    service_latency: [],
    service_same_batch: [],
    skipped_batch_sizes: options.batchSizes.flatMap((b) => {
      const reason = tooLargeForRequest(e.config, b);
      return reason ? [{ batch_size: b, reason }] : [];
    }),
  }));
  const sendable = (r: ModelResult) =>
    options.batchSizes.filter((b) => !r.skipped_batch_sizes.some((s) => s.batch_size === b));
  const steps =
    results.reduce((n, r) => n + 2 * sendable(r).length, 0) +
    loadModels.length * options.clients.length +
    (layoutModel ? 1 : 0) +
    1;
  const progress = createProgress(steps);

  progress.note(
    `${entries.length} models, batch sizes ${options.batchSizes.join(',')}; starting services (batching on, batching off)`,
  );
  const on = await target(root, {});
  const off = await target(root, { INFERENCE_DYNAMIC_BATCHING: 'off' });
  let layout: Record<string, unknown> | null = null;
  try {
    for (const [i, entry] of entries.entries()) {
      const cells = await sameBatchPhase(entry, sendable(results[i]), off, options, progress);
      results[i].bare = cells.map((c) => c.bare);
      results[i].service_same_batch = cells.map((c) => c.service);
      results[i].service_latency = await latencyPhase(entry, sendable(results[i]), on, options, progress);
    }
    for (const model of loadModels) {
      const i = entries.findIndex((e) => e.name === model);
      const load: NonNullable<ModelResult['load']> = { batching_on: [], batching_off: [], lag_p99_ms: {} };
      for (const clients of options.clients) {
        const compared = await compareLoad(entries[i], clients, on, off, options);
        load.batching_on.push(compared.a);
        load.batching_off.push(compared.b);
        load.lag_p99_ms[String(clients)] = compared.lagP99Ms;
        progress.step(
          `${model} ${clients} clients: batching on ${compared.a.rows_per_s} vs off ${compared.b.rows_per_s} req/s, lag p99 ${compared.lagP99Ms.median} ms`,
        );
      }
      results[i].load = load;
    }
    if (layoutModel) {
      const inline = await target(root, { INFERENCE_EXECUTOR: 'inline', INFERENCE_MODELS: layoutModel });
      try {
        const entry = entries.find((e) => e.name === layoutModel)!;
        const compared = await compareLoad(entry, 32, on, inline, options);
        const inlineLag = (await compareLoad(entry, 32, inline, on, { ...options, rounds: 1 })).lagP99Ms;
        layout = {
          model: layoutModel,
          clients: 32,
          process: {
            rows_per_s: compared.a.rows_per_s,
            latency: compared.a.latency,
            event_loop_lag_p99_ms: compared.lagP99Ms.median,
          },
          inline: {
            rows_per_s: compared.b.rows_per_s,
            latency: compared.b.latency,
            event_loop_lag_p99_ms: inlineLag.median,
          },
        };
        progress.step(
          `layout ${layoutModel}: process lag ${compared.lagP99Ms.median} ms vs inline ${inlineLag.median} ms`,
        );
      } finally {
        await stop(inline);
      }
    }
  } finally {
    await stop(on, off);
  }
  const memory = await measureMemory(options.repository, options.models);
  progress.step(
    `memory with every model loaded: ${memory.idle.rss_mb} MB idle, ${memory.peak.rss_mb} MB peak under load`,
  );
  progress.finish();

  const summary = summarise(results, memory.peak.rss_mb);
  const output = {
    generated_at: new Date().toISOString(),
    mode: options.quick ? 'quick' : 'full',
    machine: {
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      load_average_start: loadAvgStart,
      load_average_end: loadavg(),
    },
    method: {
      layout:
        'inference/src/main.ts as its own process: gRPC front + one executor process holding every model (INFERENCE_EXECUTOR_PROCESSES=1)',
      bare: 'session.run back to back in the benchmark process, same model files and session options as the service',
      service: `gRPC from the benchmark process; configs served with max_batch_size ${BENCH_MAX_BATCH} so every batch size can be sent`,
      interleaving: `compared measurements alternate in ${options.rounds} slices each, so background load on the shared machine hits both sides`,
      service_vs_bare_ratio:
        'service rows/s (2 requests in flight, dynamic batching off, so every run has exactly that batch size) / bare rows/s at the same batch size; median over models x batch sizes',
      batching_gain:
        'rows/s of 32 clients sending batch-1 requests, dynamic batching on / off; median over load models',
      event_loop_lag_p99_ms:
        'the service process event-loop delay p99 (monitorEventLoopDelay, 1 ms sampling) per slice of the 32-client batching-on load, median of slices, worst load model',
      rss_mb:
        'sum of VmRSS over the service and its executor process on the declared repository (production max_batch_size), peak while each model took 32 clients and its max batch; pss_mb counts shared pages once',
    },
    ...summary,
    targets: TARGETS,
    meets_targets: verdicts(summary),
    memory,
    layout_comparison: layout,
    models: results,
  };
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'inference.json'), `${JSON.stringify(output, null, 2)}\n`);
  const series = results.map((r) => ({
    model: r.model,
    points: options.batchSizes.map((batch) => ({
      batch,
      latencyMs: r.service_latency.find((c) => c.batch_size === batch)?.latency.p50_ms ?? null,
      serviceRowsPerS: r.service_same_batch.find((c) => c.batch_size === batch)?.rows_per_s ?? null,
      bareRowsPerS: r.bare.find((c) => c.batch_size === batch)?.rows_per_s ?? null,
    })),
  }));
  writeFileSync(
    join(options.outDir, 'inference.svg'),
    renderChart(
      series,
      `${output.mode} run ${output.generated_at} · ${output.machine.cpus} CPUs · load average ${loadAvgStart.map((l) => l.toFixed(1)).join('/')} at start`,
    ),
  );
  writeFileSync(join(options.outDir, 'inference.md'), renderTable(output));
  console.log(JSON.stringify({ ...summary, meets_targets: output.meets_targets, layout_comparison: layout }, null, 2));
}

main().catch((error: Error) => {
  console.error(`bench:inference failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
