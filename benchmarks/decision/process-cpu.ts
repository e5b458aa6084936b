/** CPU per process of the decision stack, and what one status poll costs each of them. */
import { PROCESSES, type ProcessName } from './decision-summary';
import { cpuMs, type DecisionStack } from './decision-stack';

/** CPU milliseconds (user + system) each process has used so far; bench_client is this process. */
export function cpuSnapshot(stack: DecisionStack): Record<ProcessName, number> {
  const own = process.cpuUsage();
  return {
    inference: cpuMs(stack.pids.inference),
    api: cpuMs(stack.pids.api),
    worker: cpuMs(stack.pids.worker),
    ferretdb: cpuMs(stack.pids.ferretdb),
    redis: cpuMs(stack.pids.redis),
    bench_client: (own.user + own.system) / 1000,
  };
}

/** CPU milliseconds the inference service's executor processes (onnxruntime) have used so far; the rest of `inference` is its front. */
export function executorCpuMs(stack: DecisionStack): number {
  return stack.inference.cpuSeconds().executors * 1000;
}

/**
 * CPU per status poll, per process: `width` clients poll a decided session back to back for
 * `seconds`; used to take the benchmark's own polling out of CPU per verification.
 */
export async function pollCost(
  stack: DecisionStack,
  sessionId: string,
  width: number,
  seconds: number,
): Promise<{ polls: number; cpu_ms_per_poll: Record<ProcessName, number> }> {
  const before = cpuSnapshot(stack);
  const until = Date.now() + seconds * 1000;
  let polls = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (Date.now() < until) {
        await (await fetch(`${stack.baseUrl}/v1/capture/${sessionId}`)).text();
        polls += 1;
      }
    }),
  );
  const after = cpuSnapshot(stack);
  const cpu = Object.fromEntries(
    PROCESSES.map((p) => [p, Math.round(((after[p] - before[p]) / Math.max(1, polls)) * 1000) / 1000]),
  ) as Record<ProcessName, number>;
  return { polls, cpu_ms_per_poll: cpu };
}
