/**
 * `npm run bench:inference -- --overhead`: what the service costs per request over bare
 * onnxruntime-node, against the service's targets (below). Per model and round, back to back on the same machine:
 * bare session.run of batch 1 (one caller), then for each compared service the ModelInfer rate
 * from one client and from 32 clients (dynamic batching on, as configured), with that service's
 * event-loop lag p99 during its 32-client slice. Ratios are per round (each compares slices a few
 * seconds apart, so a burst of other work hits both) and the reported figure is their median.
 * `--baseline <checkout>` adds another checkout's service (e.g. the previous commit) and
 * `--variant KEY=VALUE` this service with an environment change, measured in the same rounds.
 */
import { loadavg } from 'node:os';
import type { ModelEntry } from '../../inference/src/repository/load-model-repository';
import { ModelInferRequest } from '../../proto/gen/bioverify/inference/v1/model_service';
import { openPlainSessions, plainSlice, round } from './bare-ort';
import { benchInputs } from './bench-inputs';
import type { Target } from './bench-phases';
import { median } from '../../scripts/test-support/percentiles';
import type { Progress } from './progress';
import { startGrpcEcho } from './grpc-echo';
import { emptyLoad, encodedInputs, loadSlice } from './service-load';

export interface ComparedService {
  label: string;
  target: Target;
}

export interface ServiceRound {
  one_client_per_s: number;
  one_client_p50_ms: number;
  /**
   * The same request refused after decoding (it asks for an output the model lacks): the gRPC
   * round trip and tensor decode with no queue, executor or model, the floor of any service here.
   */
  transport_floor_p50_ms: number;
  /**
   * The floor again, each request sent after the client and front sat idle for one bare run, as a
   * lone request's answer is: what the transport costs once the model's run has left them cold.
   */
  transport_floor_after_idle_p50_ms: number;
  clients_32_per_s: number;
  lag_p99_ms: number;
  /**
   * CPU ms per request during the 32-client slice: the benchmark's gRPC client, the service's
   * front and its executor. On 2 shared cores the model can have at most executor / (sum) of the
   * CPU that bare onnxruntime gets, which bounds the 32-client ratio.
   */
  cpu_ms_per_request: { client: number; front: number; executor: number };
}

export interface OverheadRound {
  load_average_1m: number;
  /** The fastest plain onnxruntime-node variant of this round (bare-ort.ts PLAIN_VARIANTS). */
  bare_variant: string;
  bare_per_s: number;
  bare_p50_ms: number;
  /** Every plain variant's p50 this round; the baseline is the lowest. */
  bare_variants_p50_ms: Record<string, number>;
  /** Bare runs each after an idle gap of one run, as a lone request's run follows a gap. */
  bare_after_idle_p50_ms: number;
  /** The serialised request echoed by a bare grpc-js server in its own process (grpc-echo.ts). */
  grpc_echo_p50_ms: number;
  grpc_echo_after_idle_p50_ms: number;
  services: Record<string, ServiceRound>;
}

export interface OverheadResult {
  model: string;
  rounds: OverheadRound[];
  /** Per service label, medians over rounds. */
  summary: Record<
    string,
    {
      one_client_vs_bare: number;
      clients_32_vs_bare: number;
      lag_p99_ms: number;
      one_client_p50_ms: number;
      transport_floor_p50_ms: number;
      /** One client p50 - bare p50 - floor p50: what a lone request pays beyond inference and transport. */
      lone_overhead_ms: number;
      /** The same with the after-idle bare run and floor: the part the service's own work accounts for. */
      lone_overhead_after_idle_ms: number;
      /** One client p50 - bare p50 - grpc-js echo p50: the same with a transport that runs no service code. */
      lone_overhead_echo_ms: number;
      /** The same against the after-idle bare run and echo. */
      lone_overhead_echo_after_idle_ms: number;
      /** bare ms / (bare ms + floor ms): the best one-client ratio the transport alone allows. */
      one_client_bound: number;
      /** executor CPU / (client + front + executor CPU) per request at 32 clients: the most of the CPU the model can get. */
      clients_32_cpu_bound: number;
      cpu_ms_per_request: { client: number; front: number; executor: number };
    }
  >;
}

const perSecond = (count: number, ms: number) => round((count * 1000) / ms);
const med = (values: number[]) => Math.round((median(values) ?? NaN) * 100) / 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests that the front refuses after decoding the tensor, each after `idleMs` of idling; p50 in ms. */
async function transportFloor(
  service: Target,
  model: string,
  encoded: ReturnType<typeof encodedInputs>,
  durationMs: number,
  idleMs = 0,
): Promise<number> {
  const latencies: number[] = [];
  const stopAt = performance.now() + durationMs;
  while (performance.now() < stopAt || latencies.length < 3) {
    if (idleMs > 0) await sleep(idleMs);
    const t = performance.now();
    const refused = await service.client
      .modelInfer({ modelName: model, inputs: encoded, outputs: ['no-such-output'] }, 120_000)
      .then(
        () => false,
        () => true,
      );
    if (!refused) throw new Error(`${model} answered a request for an output it lacks`);
    latencies.push(performance.now() - t);
  }
  return round(median(latencies) ?? NaN, 2);
}

/** Bare runs, each after `idleMs` of idling; p50 in ms. */
async function bareAfterIdle(run: () => Promise<unknown>, durationMs: number, idleMs: number): Promise<number> {
  const latencies: number[] = [];
  const stopAt = performance.now() + durationMs;
  while (performance.now() < stopAt || latencies.length < 3) {
    await sleep(idleMs);
    const t = performance.now();
    await run();
    latencies.push(performance.now() - t);
  }
  return round(median(latencies) ?? NaN, 2);
}

async function serviceRound(
  service: Target,
  model: string,
  encoded: ReturnType<typeof encodedInputs>,
  sliceMs: number,
  bareMs: number,
): Promise<ServiceRound> {
  const floor = await transportFloor(service, model, encoded, sliceMs / 3);
  const floorAfterIdle = await transportFloor(service, model, encoded, sliceMs / 3, bareMs);
  const one = emptyLoad();
  await loadSlice(service.client, model, encoded, 1, 1, sliceMs, one, 3);
  const many = emptyLoad();
  await service.service.resetLag();
  const [clientBefore, serviceBefore] = [process.cpuUsage(), service.service.cpuSeconds()];
  await loadSlice(service.client, model, encoded, 1, 32, sliceMs, many, 32);
  const [clientUsed, serviceAfter] = [process.cpuUsage(clientBefore), service.service.cpuSeconds()];
  const lag = await service.service.lagP99Ms();
  const requests = Math.max(1, many.latencies.length);
  return {
    one_client_per_s: perSecond(one.rows, one.elapsedMs),
    one_client_p50_ms: round(median(one.latencies) ?? NaN, 2),
    transport_floor_p50_ms: floor,
    transport_floor_after_idle_p50_ms: floorAfterIdle,
    clients_32_per_s: perSecond(many.rows, many.elapsedMs),
    lag_p99_ms: round(lag, 2),
    cpu_ms_per_request: {
      client: round((clientUsed.user + clientUsed.system) / 1000 / requests, 2),
      front: round(((serviceAfter.front - serviceBefore.front) * 1000) / requests, 2),
      executor: round(((serviceAfter.executors - serviceBefore.executors) * 1000) / requests, 2),
    },
  };
}

export async function overheadPhase(
  entry: ModelEntry,
  services: ComparedService[],
  rounds: number,
  sliceMs: number,
  progress: Progress,
): Promise<OverheadResult> {
  const inputs = benchInputs(entry.config, 1);
  const threads = process.env.INFERENCE_INTRA_OP_THREADS ? Number(process.env.INFERENCE_INTRA_OP_THREADS) : undefined;
  const plain = await openPlainSessions(entry.modelPath, inputs, threads);
  const echo = await startGrpcEcho();
  const encoded = encodedInputs(entry.config, 1);
  const request = Buffer.from(
    ModelInferRequest.encode(ModelInferRequest.fromPartial({ modelName: entry.name, inputs: encoded })).finish(),
  );
  const measured: OverheadRound[] = [];
  try {
    for (const { target } of services) await loadSlice(target.client, entry.name, encoded, 1, 32, 300, emptyLoad());
    for (let r = 0; r < rounds; r++) {
      const variants: Record<string, { p50: number; perS: number }> = {};
      // Rotate the variants' order per round, so none always runs first after the services' slices.
      for (let v = 0; v < plain.length; v++) {
        const session = plain[(v + r) % plain.length];
        variants[session.variant] = await plainSlice(session.run, sliceMs / 2);
      }
      const fastest = plain.reduce((best, s) => (variants[s.variant].p50 < variants[best.variant].p50 ? s : best));
      const bareMs = variants[fastest.variant].p50;
      const round1: OverheadRound = {
        load_average_1m: round(loadavg()[0], 2),
        bare_variant: fastest.variant,
        bare_per_s: variants[fastest.variant].perS,
        bare_p50_ms: bareMs,
        bare_variants_p50_ms: Object.fromEntries(Object.entries(variants).map(([k, v]) => [k, v.p50])),
        bare_after_idle_p50_ms: await bareAfterIdle(fastest.run, sliceMs / 3, bareMs),
        grpc_echo_p50_ms: await echo.p50(request, sliceMs / 3),
        grpc_echo_after_idle_p50_ms: await echo.p50(request, sliceMs / 3, bareMs),
        services: {},
      };
      // Alternate which service goes first, so neither always follows the bare slice.
      const order = r % 2 === 0 ? services : [...services].reverse();
      for (const { label, target } of order)
        round1.services[label] = await serviceRound(target, entry.name, encoded, sliceMs, bareMs);
      measured.push(round1);
      const text = services
        .map(({ label }) => {
          const s = round1.services[label];
          return `${label}: 1 client ${s.one_client_per_s}/s (p50 ${s.one_client_p50_ms} ms), 32 clients ${s.clients_32_per_s}/s, lag p99 ${s.lag_p99_ms} ms`;
        })
        .join('; ');
      progress.note(
        `${entry.name} round ${r + 1}: bare ${round1.bare_per_s}/s; ${text}; load ${round1.load_average_1m}`,
      );
    }
  } finally {
    await Promise.all(plain.map((s) => s.close()));
    await echo.close();
  }
  const summary: OverheadResult['summary'] = {};
  for (const { label } of services) {
    const of = (f: (s: ServiceRound, m: OverheadRound) => number) => med(measured.map((m) => f(m.services[label], m)));
    summary[label] = {
      one_client_vs_bare: of((s, m) => s.one_client_per_s / m.bare_per_s),
      clients_32_vs_bare: of((s, m) => s.clients_32_per_s / m.bare_per_s),
      lag_p99_ms: of((s) => s.lag_p99_ms),
      one_client_p50_ms: of((s) => s.one_client_p50_ms),
      transport_floor_p50_ms: of((s) => s.transport_floor_p50_ms),
      lone_overhead_ms: of((s, m) => s.one_client_p50_ms - m.bare_p50_ms - s.transport_floor_p50_ms),
      lone_overhead_after_idle_ms: of(
        (s, m) => s.one_client_p50_ms - m.bare_after_idle_p50_ms - s.transport_floor_after_idle_p50_ms,
      ),
      lone_overhead_echo_ms: of((s, m) => s.one_client_p50_ms - m.bare_p50_ms - m.grpc_echo_p50_ms),
      lone_overhead_echo_after_idle_ms: of(
        (s, m) => s.one_client_p50_ms - m.bare_after_idle_p50_ms - m.grpc_echo_after_idle_p50_ms,
      ),
      one_client_bound: of((s, m) => 1000 / m.bare_per_s / (1000 / m.bare_per_s + s.transport_floor_p50_ms)),
      clients_32_cpu_bound: of(
        (s) =>
          s.cpu_ms_per_request.executor /
          (s.cpu_ms_per_request.client + s.cpu_ms_per_request.front + s.cpu_ms_per_request.executor),
      ),
      cpu_ms_per_request: {
        client: of((s) => s.cpu_ms_per_request.client),
        front: of((s) => s.cpu_ms_per_request.front),
        executor: of((s) => s.cpu_ms_per_request.executor),
      },
    };
  }
  return { model: entry.name, rounds: measured, summary };
}
