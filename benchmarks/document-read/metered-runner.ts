/**
 * A runner that runs one model call at a time and records each call's process CPU: with nothing
 * else running in the model's threads, the CPU used between a call's start and end is its own.
 */
import type { ModelRunner } from '../../inference/src/runtime/model-runner';

export interface ModelCall {
  model: string;
  batch: number;
  /** The input's last dimension (an image's width). */
  width: number;
  cpuMs: number;
  wallMs: number;
}

export function meteredRunner(runner: ModelRunner, calls: ModelCall[]): ModelRunner {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    config: (name) => runner.config(name),
    infer: (name, inputs, options) => {
      const run = async () => {
        const dims = Object.values(inputs)[0].dims;
        const cpu = process.cpuUsage();
        const started = performance.now();
        const out = await runner.infer(name, inputs, options);
        const used = process.cpuUsage(cpu);
        calls.push({
          model: name,
          batch: dims[0],
          width: dims[dims.length - 1],
          cpuMs: (used.user + used.system) / 1000,
          wallMs: performance.now() - started,
        });
        return out;
      };
      const next = queue.then(run, run);
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
