import { readFileSync } from 'node:fs';
import { cpuSecondsOf } from '../../scripts/test-support/process-tree';

/** Resident memory of one process in MiB (VmRSS of /proc/<pid>/status); 0 once it has exited. */
export function rssMiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.replace(/\D+/g, '')) / 1024 : 0;
  } catch {
    return 0;
  }
}

export interface Usage {
  cpu_pct: number;
  rss_mib: number;
  rss_max_mib: number;
}

/**
 * CPU (% of one core over the window, from /proc/<pid>/stat) and RSS (at the end, and the most
 * sampled once a second) of each named process while `during` runs.
 */
export async function measureUsage<T>(
  pids: Partial<Record<string, number>>,
  during: () => Promise<T>,
): Promise<{ result: T; usage: Record<string, Usage> }> {
  const known = Object.fromEntries(Object.entries(pids).filter((e): e is [string, number] => e[1] !== undefined));
  const startCpu = Object.fromEntries(Object.entries(known).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
  const maxRss: Record<string, number> = Object.fromEntries(Object.keys(known).map((name) => [name, 0]));
  const sample = () => {
    for (const [name, pid] of Object.entries(known)) maxRss[name] = Math.max(maxRss[name], rssMiB(pid));
  };
  const timer = setInterval(sample, 1_000);
  const started = process.hrtime.bigint();
  try {
    const result = await during();
    sample();
    const wallS = Number(process.hrtime.bigint() - started) / 1e9;
    const usage = Object.fromEntries(
      Object.entries(known).map(([name, pid]) => [
        name,
        {
          cpu_pct: round(((cpuSecondsOf(pid) - startCpu[name]) / wallS) * 100),
          rss_mib: round(rssMiB(pid)),
          rss_max_mib: round(maxRss[name]),
        },
      ]),
    );
    return { result, usage };
  } finally {
    clearInterval(timer);
  }
}

const round = (v: number) => Math.round(v * 10) / 10;
