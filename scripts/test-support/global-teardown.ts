import { rmSync } from 'node:fs';

/** Stops what the global setup started and removes its data: no process outlives the suite. */
export default async function globalTeardown(): Promise<void> {
  const handle = (globalThis as { __TEST_STACK__?: { stack: Array<{ stop(): Promise<void> }>; stateDir: string } })
    .__TEST_STACK__;
  if (!handle) return;
  await Promise.all(handle.stack.map((p) => p.stop()));
  rmSync(handle.stateDir, { recursive: true, force: true });
}
