import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a long-running child whose output goes to `logFile` (or is inherited), and that can be
 * stopped and awaited. Used by the local stack and the test stack alike.
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { logFile?: string } = {},
): ManagedProcess {
  let stdio: SpawnOptions['stdio'] = options.stdio ?? 'inherit';
  if (options.logFile) {
    mkdirSync(path.dirname(options.logFile), { recursive: true });
    stdio = ['ignore', 'pipe', 'pipe'];
  }
  const child = spawn(command, args, { ...options, stdio });
  if (options.logFile) {
    const log = createWriteStream(options.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
  });
  return {
    name,
    child,
    async stop(graceMs = 5_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `probe` until it answers true or `timeoutMs` passes; a probe that throws or rejects answers false. */
export async function waitFor(
  what: string,
  probe: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
  child?: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`${what} exited with code ${child.exitCode} before it was ready`);
    if (
      await Promise.resolve()
        .then(probe)
        .catch(() => false)
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} was not ready after ${timeoutMs} ms`);
}
