/**
 * `npm run bench:inference [-- --quick] [--models a,b] [--load-models a,b]`: bare onnxruntime-node
 * vs the gRPC service on the same models and batch sizes, concurrent-client load with dynamic
 * batching on and off, the executor layout comparison, memory. Writes
 * benchmarks/results/inference.{json,svg,md}. Run it on an otherwise idle machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInferenceClient } from '../../inference/src/client/inference-client';
import { measureBare } from './bare-ort';
import { tooLargeForRequest } from './bench-inputs';
import { parseBenchOptions } from './bench-options';
import { BENCH_MAX_BATCH, prepareBenchRepository } from './bench-repository';
import { summarise, TARGETS, verdicts, type ModelResult } from './bench-summary';
import { createProgress } from './progress';
import { renderChart } from './results-chart';
import { renderTable } from './results-table';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { runLoad } from './service-load';

async function withService<T>(repository: string, env: Record<string, string>, work: (service: ServiceProcess, client: ReturnType<typeof createInferenceClient>) => Promise<T>): Promise<T> {
  const service = await startServiceProcess(repository, env);
  const client = createInferenceClient({ address: service.address });
  try {
    return await work(service, client);
  } finally {
    client.close();
    await service.stop();
  }
}

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  const loadAvgStart = loadavg();
  const { root, entries } = await prepareBenchRepository(options.repository, options.models);
  const loadModels = options.loadModels.filter((m) => entries.some((e) => e.name === m));
  const layoutModel = loadModels.includes('face-embedding') ? 'face-embedding' : loadModels[0];
  const perModelCells = options.batchSizes.length * 3;
  const progress = createProgress(entries.length * perModelCells + loadModels.length * options.clients.length * 2 + (layoutModel ? 1 : 0));
  const results: ModelResult[] = entries.map((e) => ({
    model: e.name, max_batch_size_declared: e.config.max_batch_size, bare: [], service_latency: [], service_same_batch: [],
    skipped_batch_sizes: options.batchSizes.flatMap((b) => { const reason = tooLargeForRequest(e.config, b); return reason ? [{ batch_size: b, reason }] : []; }),
  }));
  const sendable = (r: ModelResult) => options.batchSizes.filter((b) => !r.skipped_batch_sizes.some((s) => s.batch_size === b));

  progress.note(`bare onnxruntime-node, ${entries.length} models, batch sizes ${options.batchSizes.join(',')}`);
  for (const [i, entry] of entries.entries()) results[i]!.bare = await measureBare(entry, options, progress);

  const memory = { idle: { rss_mb: 0, pss_mb: 0, processes: 0 }, loaded: { rss_mb: 0, pss_mb: 0, processes: 0 } };
  progress.note('service (process executors, dynamic batching on): latency per batch size and 1/8/32-client load');
  let idleLagP99Ms = NaN;
  await withService(root, {}, async (service, client) => {
    memory.idle = service.memory();
    // Control: the same event-loop measurement with no requests at all (machine noise floor).
    await service.resetLag();
    await new Promise((r) => setTimeout(r, 2000));
    idleLagP99Ms = Math.round((await service.lagP99Ms()) * 100) / 100;
    for (const [i, entry] of entries.entries()) {
      for (const batch of sendable(results[i]!)) {
        const cell = await runLoad(client, entry.name, entry.config, batch, 1, options.cellMs, options.minIterations);
        results[i]!.service_latency.push(cell);
        progress.step(`service ${entry.name} batch ${batch}: p50 ${cell.latency.p50_ms} ms`);
      }
    }
    for (const model of loadModels) {
      const i = entries.findIndex((e) => e.name === model);
      results[i]!.load = { batching_on: [], batching_off: [], lag_p99_ms: {} };
      for (const clients of options.clients) {
        await service.resetLag();
        const load = await runLoad(client, model, entries[i]!.config, 1, clients, options.loadMs);
        results[i]!.load.lag_p99_ms[String(clients)] = await service.lagP99Ms();
        results[i]!.load.batching_on.push(load);
        const now = service.memory();
        if (now.rss_mb > memory.loaded.rss_mb) memory.loaded = now;
        progress.step(`load ${model} ${clients} clients, batching on: ${load.rows_per_s} req/s`);
      }
    }
  });

  progress.note('service, dynamic batching off: same-batch throughput and the one-request-one-run baseline');
  await withService(root, { INFERENCE_DYNAMIC_BATCHING: 'off' }, async (_service, client) => {
    for (const [i, entry] of entries.entries()) {
      for (const batch of sendable(results[i]!)) {
        const cell = await runLoad(client, entry.name, entry.config, batch, 2, options.cellMs, options.minIterations);
        results[i]!.service_same_batch.push(cell);
        progress.step(`service ${entry.name} batch ${batch} (2 in flight): ${cell.rows_per_s} rows/s`);
      }
    }
    for (const model of loadModels) {
      const i = entries.findIndex((e) => e.name === model);
      for (const clients of options.clients) {
        const load = await runLoad(client, model, entries[i]!.config, 1, clients, options.loadMs);
        results[i]!.load!.batching_off.push(load);
        progress.step(`load ${model} ${clients} clients, batching off: ${load.rows_per_s} req/s`);
      }
    }
  });

  let layout: Record<string, unknown> | undefined;
  if (layoutModel) {
    const processLoad = results.find((r) => r.model === layoutModel)!.load!;
    layout = await withService(root, { INFERENCE_EXECUTOR: 'inline', INFERENCE_MODELS: layoutModel }, async (service, client) => {
      await service.resetLag();
      const load = await runLoad(client, layoutModel, entries.find((e) => e.name === layoutModel)!.config, 1, 32, options.loadMs);
      const lag = await service.lagP99Ms();
      progress.step(`layout: ${layoutModel} inline on the front thread, 32 clients: lag p99 ${lag.toFixed(0)} ms`);
      return {
        model: layoutModel, clients: 32,
        process: { rows_per_s: processLoad.batching_on.find((l) => l.clients === 32)!.rows_per_s, event_loop_lag_p99_ms: processLoad.lag_p99_ms['32'] },
        inline: { rows_per_s: load.rows_per_s, event_loop_lag_p99_ms: Math.round(lag * 100) / 100 },
      };
    });
  }
  progress.finish();

  const summary = summarise(results, memory.loaded.rss_mb || memory.idle.rss_mb);
  const output = {
    generated_at: new Date().toISOString(),
    mode: options.quick ? 'quick' : 'full',
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? 'unknown', node: process.version, load_average_start: loadAvgStart, load_average_end: loadavg() },
    method: {
      bare: 'session.run back to back in the benchmark process, same model files and session options as the service',
      service: `inference/src/main.ts as its own process (one executor process per model), gRPC from the benchmark process; configs served with max_batch_size ${BENCH_MAX_BATCH}`,
      service_vs_bare_ratio: 'service rows/s with 2 requests in flight and dynamic batching off (each run = that batch size) / bare rows/s at the same batch size; median over models x batch sizes',
      batching_gain: 'rows/s at 32 clients sending batch-1 requests, dynamic batching on / off; median over load models',
      event_loop_lag_p99_ms: 'service process event-loop delay p99 (perf_hooks monitorEventLoopDelay, 1 ms sampling, so an idle loop reads ~1 ms) during the 32-client batching-on load; worst load model',
      rss_mb: 'sum of VmRSS of the service and its executor processes with every model loaded, peak during load (shared pages counted once per process; pss_mb counts them once)',
    },
    ...summary,
    event_loop_lag_p99_ms_idle_service: idleLagP99Ms,
    targets: TARGETS,
    meets_targets: verdicts(summary),
    memory,
    layout_comparison: layout ?? null,
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
  writeFileSync(join(options.outDir, 'inference.svg'), renderChart(series, `${output.mode} run ${output.generated_at} · ${output.machine.cpus} CPUs · load avg at start ${loadAvgStart.map((l) => l.toFixed(1)).join('/')}`));
  writeFileSync(join(options.outDir, 'inference.md'), renderTable(output));
  console.log(JSON.stringify({ ...summary, meets_targets: output.meets_targets, layout_comparison: layout }, null, 2));
}

main().catch((error: Error) => {
  console.error(`bench:inference failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
