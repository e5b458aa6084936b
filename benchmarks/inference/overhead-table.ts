/** The Markdown table of `npm run bench:inference -- --overhead`: one row per model and compared service. */
import { median } from '../../scripts/test-support/percentiles';
import { round } from './bare-ort';
import type { OverheadResult, OverheadRound } from './overhead-phase';

export function renderOverhead(results: OverheadResult[], header: string): string {
  const rows = results.flatMap((r) =>
    Object.entries(r.summary).map(([label, s]) => {
      const of = (f: (m: OverheadRound) => number) => round(median(r.rounds.map(f)) ?? NaN);
      return `| ${r.model} | ${label} | ${of((m) => m.bare_per_s)} | ${of((m) => m.services[label].one_client_per_s)} (p50 ${s.one_client_p50_ms} ms) | **${s.one_client_vs_bare}** | ${s.transport_floor_p50_ms} ms → ≤ ${s.one_client_bound} | ${of((m) => m.services[label].clients_32_per_s)} | **${s.clients_32_vs_bare}** | ${s.cpu_ms_per_request.client} / ${s.cpu_ms_per_request.front} / ${s.cpu_ms_per_request.executor} → ≤ ${s.clients_32_cpu_bound} | ${s.lag_p99_ms} | ${r.rounds.map((m) => m.load_average_1m).join(' / ')} |`;
    }),
  );
  return [
    '# Service overhead per request (`npm run bench:inference -- --overhead`)',
    '',
    header,
    '',
    '| model | service | bare batch-1 runs/s | ModelInfer 1 client req/s | 1 client / bare | transport floor p50 → bound on 1 client / bare | 32 clients req/s | 32 clients / bare | CPU ms per request at 32 clients: client / front / executor → bound | lag p99 ms (32 clients) | load average per round |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    '| model | service | bare p50 ms (after an idle gap) | transport floor p50 ms (after an idle gap) | grpc-js echo p50 ms (after an idle gap) | 1 client p50 ms | lone request overhead ms: p50 - bare - floor (target ≤ 1) | the same against the after-idle bare run and floor | p50 - bare - echo | the same after an idle gap |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...results.flatMap((r) =>
      Object.entries(r.summary).map(([label, s]) => {
        const of = (f: (m: OverheadRound) => number) => round(median(r.rounds.map(f)) ?? NaN, 2);
        return `| ${r.model} | ${label} | ${of((m) => m.bare_p50_ms)} (${of((m) => m.bare_after_idle_p50_ms)}) | ${s.transport_floor_p50_ms} (${of((m) => m.services[label].transport_floor_after_idle_p50_ms)}) | ${of((m) => m.grpc_echo_p50_ms)} (${of((m) => m.grpc_echo_after_idle_p50_ms)}) | ${s.one_client_p50_ms} | **${s.lone_overhead_ms}** | ${s.lone_overhead_after_idle_ms} | **${s.lone_overhead_echo_ms}** | ${s.lone_overhead_echo_after_idle_ms} |`;
      }),
    ),
    '',
    "| model | plain onnxruntime-node variant (same model file, in process, the executor's intra-op threads) | p50 ms per round | rounds it was the fastest |",
    '| --- | --- | --- | --- |',
    ...results.flatMap((r) =>
      Object.keys(r.rounds[0]?.bare_variants_p50_ms ?? {}).map(
        (variant) =>
          `| ${r.model} | ${variant} | ${r.rounds.map((m) => m.bare_variants_p50_ms[variant]).join(' / ')} | ${r.rounds.filter((m) => m.bare_variant === variant).length} of ${r.rounds.length} |`,
      ),
    ),
    '',
    'Medians over rounds of per-round ratios; each round runs bare, then each service with one client and with 32 clients. Transport floor: the same tensor sent as a request the front refuses after decoding it (gRPC + decode, no queue, executor or model); bound = bare ms / (bare ms + floor ms). CPU bound at 32 clients: the executor share of the CPU the three processes used per request (the benchmark own gRPC client shares the 2 cores, as an API on the same node would). Targets: 1 client ≥ 0.8, 32 clients ≥ 0.85, lag p99 < 20 ms. Bare: per round, the fastest of the plain onnxruntime-node variants (benchmarks/inference/bare-ort.ts: the executor own session options, spinning only during runs, and the onnxruntime defaults; each a session on the same model file in this process with the executor intra-op threads, inputs made once, outputs not copied). Lone request overhead: per round, the one-client p50 less the bare p50 and the floor p50, then the median over rounds; the echo columns subtract instead a grpc-js echo of the same serialised request, by a bare grpc-js server in its own process (grpc-echo-server.ts). After an idle gap: the bare run and the refused request each follow an idle gap of one bare run, as the run and the answer of a lone request follow idle time; the bare loop and the floor loop otherwise run hot, back to back.',
    '',
  ].join('\n');
}
