/**
 * The CPU of each thread of a running process between two moments, grouped by role: what a
 * .cpuprofile cannot show (it samples the main thread only) but the process's CPU counts, such as
 * V8's helper threads (concurrent and parallel GC, background compilation), the libuv pool (sharp's
 * decode and resize run there) and libvips' own workers.
 *
 *   npx tsx benchmarks/inference/thread-cpu.ts --pid PID [--after-s 70] [--for-s 60]
 *
 * Node 20 names none of its own threads, so roles follow the order it starts them in (checked on
 * this machine with a script that loads each pool on its own): the main thread (tid = pid), the
 * delayed-task scheduler, the 4 V8 platform workers, then the libuv pool once first used. Threads
 * named by their owner (libvips, the V8 profiler) are grouped by name.
 */
import { readdirSync, readFileSync } from 'node:fs';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const TICKS_PER_S = 100;

function threads(pid: number): Map<number, { name: string; cpuS: number }> {
  const found = new Map<number, { name: string; cpuS: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      found.set(tid, { name, cpuS: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return found;
}

function roleOf(pid: number, tid: number, name: string): string {
  if (tid === pid) return 'main thread (JS, GC pauses, N-API calls)';
  if (name !== 'node') return name;
  if (tid >= pid + 2 && tid <= pid + 5) return 'V8 platform workers (concurrent GC, compilation)';
  return 'other node threads (libuv pool: sharp decode; loader)';
}

async function main(): Promise<void> {
  const pid = option('pid', 0);
  if (!pid) throw new Error('usage: thread-cpu.ts --pid PID [--after-s S] [--for-s S]');
  const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
  await sleep(option('after-s', 0));
  const before = threads(pid);
  const processBefore = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[11]);
  // Poll so a thread that ends before the window closes still counts up to its last reading.
  const last = new Map(before);
  const end = Date.now() + option('for-s', 60) * 1000;
  while (Date.now() < end) {
    await sleep(1);
    try {
      for (const [tid, t] of threads(pid)) last.set(tid, t);
    } catch {
      break; // the process ended
    }
  }
  const byRole = new Map<string, number>();
  for (const [tid, t] of last) {
    const role = roleOf(pid, tid, t.name);
    byRole.set(role, (byRole.get(role) ?? 0) + t.cpuS - (before.get(tid)?.cpuS ?? 0));
  }
  const total = [...byRole.values()].reduce((a, b) => a + b, 0);
  console.log(`pid ${pid}: ${total.toFixed(2)} s CPU over the window (process utime at start ${processBefore} ticks)`);
  console.log('| CPU s | % | threads |\n|---:|---:|---|');
  for (const [role, s] of [...byRole].sort((a, b) => b[1] - a[1]))
    console.log(`| ${s.toFixed(2)} | ${((100 * s) / total).toFixed(1)} | ${role} |`);
}

void main();
