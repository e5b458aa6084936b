import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb, WEB_DIST } from '../../hosted/build-web';
import { launchBrowser, PHONE } from '../../scripts/test-support/browser';
import { issueAccountAt } from '../../scripts/test-support/account-bootstrap';
import { startApiProcess } from '../../scripts/test-support/service-process';
import { startStackPieces } from '../../scripts/test-support/stack-pieces';

const ROOT = path.resolve(__dirname, '../..');
const STATE = path.join(ROOT, '.state', 'hosted-bench');
const LOADS = Number(process.env.BENCH_LOADS ?? 9);
/** Chrome DevTools' "Fast 3G" preset, a phone on a weak mobile network. */
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
  uploadThroughput: ((750 * 1024) / 8) * 0.9,
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * `npm run bench:hosted`: the flow script's size (raw and gzipped) and the hosted page's load time
 * in headless Chromium with a phone viewport, from navigation to the first step drawn by the script
 * (`body[data-step=intro]`), on loopback and under Fast 3G emulation; median of BENCH_LOADS loads,
 * each a fresh context (cold cache) on a fresh session.
 */
async function main(): Promise<void> {
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true });
  await buildWeb();
  const running: Array<{ stop(): Promise<unknown> }> = [];
  try {
    const pieces = await startStackPieces(STATE, { database: 'bench', prefix: 'bench' });
    running.push(pieces);
    const env = { ...pieces.env, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
    const account = await issueAccountAt(env.MONGODB_URI, env, { name: 'Bench' });
    const api = await startApiProcess(env);
    running.push({ stop: () => api.kill('SIGTERM') });
    const baseUrl = `http://127.0.0.1:${api.port}`;
    const browser = await launchBrowser();
    running.push({ stop: () => browser.close() });
    const measure = async (throttled: boolean): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < LOADS; i++) {
        const res = await fetch(`${baseUrl}/v1/sessions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Api-Key': account.sandbox_api_key },
          body: JSON.stringify({
            return_url: 'https://shop.example/done',
            webhook_url: 'https://shop.example/hook',
            expected_name: 'Bench Applicant',
          }),
        });
        const { verification_url } = (await res.json()) as { verification_url: string };
        const context = await browser.newContext(PHONE);
        const page = await context.newPage();
        if (throttled) await (await context.newCDPSession(page)).send('Network.emulateNetworkConditions', FAST_3G);
        const started = Date.now();
        await page.goto(verification_url);
        await page.waitForSelector('body[data-step="intro"]', { timeout: 60_000 });
        times.push(Date.now() - started);
        await context.close();
      }
      return times;
    };
    const loopback = await measure(false);
    const fast3g = await measure(true);
    await browser.close();
    running.pop();
    const flow = readFileSync(path.join(WEB_DIST, 'flow.js'));
    const widget = readFileSync(path.join(WEB_DIST, 'widget.js'));
    const result = {
      measured_at: new Date().toISOString(),
      load_average: os.loadavg().map((l) => Number(l.toFixed(2))),
      loads: LOADS,
      flow_js_bytes: flow.length,
      flow_js_gzip_bytes: gzipSync(flow, { level: 9 }).length,
      widget_js_bytes: widget.length,
      widget_js_gzip_bytes: gzipSync(widget, { level: 9 }).length,
      to_first_step_ms_loopback: { median: median(loopback), all: loopback },
      to_first_step_ms_fast_3g: { median: median(fast3g), all: fast3g },
    };
    mkdirSync(path.join(ROOT, 'benchmarks/results'), { recursive: true });
    writeFileSync(path.join(ROOT, 'benchmarks/results/hosted-page.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const proc of running.reverse()) await proc.stop().catch(() => undefined);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
