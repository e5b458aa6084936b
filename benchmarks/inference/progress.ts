/** One progress line on stderr, rewritten in place on a terminal and appended otherwise. */
export function createProgress(total: number) {
  let done = 0;
  const started = Date.now();
  return {
    step(label: string): void {
      done += 1;
      const elapsed = ((Date.now() - started) / 1000).toFixed(0);
      const line = `[bench:inference] ${done}/${total} ${label} (${elapsed}s)`;
      if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${line}`);
      else process.stderr.write(`${line}\n`);
    },
    note(line: string): void {
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      process.stderr.write(`[bench:inference] ${line}\n`);
    },
    finish(): void {
      if (process.stderr.isTTY) process.stderr.write('\n');
    },
  };
}

export type Progress = ReturnType<typeof createProgress>;
