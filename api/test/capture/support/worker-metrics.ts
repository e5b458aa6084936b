import type { CaptureStack } from './capture-stack';

/** Scrapes every worker's /metrics once and answers a counter's total over them, filtered by labels. */
export async function workerMetrics(stack: CaptureStack) {
  const scraped = await Promise.all(
    stack.stack.workers.map((w) => fetch(`http://127.0.0.1:${w.port}/metrics`).then((r) => r.text())),
  );
  return (name: string, labels: Record<string, string> = {}) =>
    scraped
      .flatMap((text) => text.split('\n'))
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .filter((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
