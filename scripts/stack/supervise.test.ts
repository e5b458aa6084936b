import { startProcess } from './child-process';
import { Supervised } from './supervise';

/** A node child that exits with `code` after `ms`, or runs until stopped when `ms` is null. */
const child = (ms: number | null, code = 3) =>
  startProcess(
    'child',
    process.execPath,
    ['-e', ms === null ? 'setInterval(() => {}, 1000)' : `setTimeout(() => process.exit(${code}), ${ms})`],
    { stdio: 'ignore' },
  );

const until = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
};

describe('a supervised process of the local stack', () => {
  it('is logged and restarted when it dies, waiting twice as long after each quick death, and keeps running once it stays up', async () => {
    const lines: string[] = [];
    let launches = 0;
    const supervised = await Supervised.start('api', () => (++launches <= 3 ? child(50) : child(null)), {
      minBackoffMs: 100,
      log: (line) => lines.push(line),
    });
    await until(() => supervised.restarts === 3);
    expect(lines.filter((l) => l.includes('exited'))).toEqual([
      'api exited (code 3); restarting in 100 ms',
      'api exited (code 3); restarting in 200 ms',
      'api exited (code 3); restarting in 400 ms',
    ]);
    expect(supervised.current.child.exitCode).toBeNull();
    await supervised.stop();
    expect(supervised.current.child.signalCode).toBe('SIGTERM');
  });

  it('restarts one killed from outside, and starts nothing once stopped', async () => {
    const lines: string[] = [];
    const supervised = await Supervised.start('worker', () => child(null), {
      minBackoffMs: 50,
      log: (line) => lines.push(line),
    });
    const first = supervised.current.child.pid;
    supervised.current.child.kill('SIGKILL');
    await until(() => supervised.restarts === 1);
    expect(lines[0]).toBe('worker exited (signal SIGKILL); restarting in 50 ms');
    expect(supervised.current.child.pid).not.toBe(first);
    await supervised.stop();
    await new Promise((r) => setTimeout(r, 200));
    expect(supervised.restarts).toBe(1);
  });

  it('keeps trying, with backoff, when a restart itself fails', async () => {
    const lines: string[] = [];
    let launches = 0;
    const supervised = await Supervised.start(
      'inference',
      () => {
        launches += 1;
        if (launches === 1) return child(30);
        if (launches === 2) throw new Error('port in use');
        return child(null);
      },
      { minBackoffMs: 50, log: (line) => lines.push(line) },
    );
    await until(() => supervised.restarts === 1);
    expect(lines).toEqual([
      'inference exited (code 3); restarting in 50 ms',
      'inference failed to restart: port in use; next try in 100 ms',
      expect.stringMatching(/^inference restarted \(restart 1, pid \d+\)$/),
    ]);
    await supervised.stop();
  });
});
