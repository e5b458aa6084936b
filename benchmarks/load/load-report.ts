/** load.md (tables) and load.svg (throughput and p99 against clients, one line per store size). */
import { OPERATIONS, type MixFigures, type OperationFigures } from './traffic-mix';
import type { ApiTelemetry, Timed } from './api-telemetry';
import type { Usage } from './process-usage';

export interface LoadStep extends MixFigures {
  stored: number;
  usage: Record<string, Usage>;
  /** /proc/loadavg right after the step. */
  loadavg?: string;
  /** The API's own account of the step (GET /metrics before and after it). */
  api?: ApiTelemetry;
}

export interface SoakFigures {
  clients: number;
  duration_s: number;
  requests_per_s: number;
  statuses: Record<string, number>;
  server_errors: number;
  /** API RSS once a minute (MiB), the first after the warm-up minute. */
  api_rss_mib: number[];
  store_rss_mib: number[];
  api_rss_growth_pct: number | null;
}

export interface LoadResults {
  meta: Record<string, unknown>;
  fills: Array<{ stored: number; seconds: number; via: string }>;
  /** GET /v1/sessions/{id} alone at one client, right after each fill. */
  read_by_id: Array<OperationFigures & { stored: number; loadavg: string }>;
  steps: LoadStep[];
  soak: SoakFigures | null;
}

const cell = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));
const codes = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([c, n]) => `${c}: ${n}`)
    .join(', ');

export function renderMarkdown(r: LoadResults): string {
  const lines = [
    `# bench:load (${String(r.meta.label)})`,
    '',
    `Run ${String(r.meta.date)}; ${String(r.meta.machine)}; load average at start ${String(r.meta.loadavg_start)}, at end ${String(r.meta.loadavg_end)}; ${String(r.meta.store)}.`,
    '',
  ];
  lines.push(
    '## Read by id alone, one client, right after each fill',
    '',
    '| stored | reads | p50 ms | p99 ms | max ms | load average |',
    '|---|---|---|---|---|---|',
  );
  for (const r1 of r.read_by_id)
    lines.push(
      `| ${r1.stored} | ${r1.n} | ${cell(r1.p50_ms)} | ${cell(r1.p99_ms)} | ${cell(r1.max_ms)} | ${r1.loadavg} |`,
    );
  lines.push('');
  lines.push(
    '## Throughput and answers',
    '',
    '| stored | clients | req/s | creates/s | answers by status | no answer | API CPU % | API RSS MiB | FerretDB CPU % | FerretDB RSS MiB | worker CPU % |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const s of r.steps) {
    lines.push(
      `| ${s.stored} | ${s.clients} | ${s.requests_per_s} | ${s.operations.create.per_s} | ${codes(s.statuses)} | ${s.errors + s.timeouts} | ${s.usage.api?.cpu_pct} | ${s.usage.api?.rss_mib} | ${s.usage.ferretdb?.cpu_pct} | ${s.usage.ferretdb?.rss_mib} | ${s.usage.worker?.cpu_pct ?? '–'} |`,
    );
  }
  lines.push(
    '',
    '## Latency per operation (ms): p50 / p99 / max',
    '',
    `| stored | clients | ${OPERATIONS.join(' | ')} |`,
    `|---|---|${OPERATIONS.map(() => '---').join('|')}|`,
  );
  for (const s of r.steps)
    lines.push(
      `| ${s.stored} | ${s.clients} | ${OPERATIONS.map((op) => `${cell(s.operations[op].p50_ms)} / ${cell(s.operations[op].p99_ms)} / ${cell(s.operations[op].max_ms)}`).join(' | ')} |`,
    );
  lines.push(
    '',
    '## Tail against mean per operation: mean ms, p99 ms, p99 / mean (aim: p99 at most 4 × the mean and under 250 ms)',
    '',
    `| stored | clients | load average after | ${OPERATIONS.join(' | ')} |`,
    `|---|---|---|${OPERATIONS.map(() => '---').join('|')}|`,
  );
  const ratio = (f: OperationFigures) =>
    f.mean_ms && f.p99_ms !== null ? String(Math.round((f.p99_ms / f.mean_ms) * 10) / 10) : '–';
  for (const s of r.steps)
    lines.push(
      `| ${s.stored} | ${s.clients} | ${s.loadavg ?? '–'} | ${OPERATIONS.map((op) => `${cell(s.operations[op].mean_ms)}, ${cell(s.operations[op].p99_ms)}, ${ratio(s.operations[op])}`).join(' | ')} |`,
    );
  const withApi = r.steps.filter((s) => s.api);
  if (withApi.length > 0) {
    const timed = (t: Timed | undefined) =>
      t ? `${t.n} × ${cell(t.mean_ms)} (p99 ≤ ${cell(t.p99_le_ms)}, >50 ms ${cell(t.over_50ms_pct)} %)` : '–';
    const stages = [...new Set(withApi.flatMap((s) => Object.keys(s.api!.stages)))];
    const commands = [...new Set(withApi.flatMap((s) => Object.keys(s.api!.store_commands)))];
    lines.push(
      '',
      "## The API's own account (GET /metrics before and after each step)",
      '',
      'Event-loop delay (monitorEventLoopDelay), GC pauses (all kinds), busy-store retries (store-retry.ts).',
      '',
      '| stored | clients | loop delay mean / p99 / max ms | GC pauses | GC ms (share of the step) | store retries (exhausted) |',
      '|---|---|---|---|---|---|',
      ...withApi.map((s) => {
        const a = s.api!;
        return `| ${s.stored} | ${s.clients} | ${a.event_loop_delay_ms.mean} / ${a.event_loop_delay_ms.p99} / ${a.event_loop_delay_ms.max} | ${a.gc.pauses} | ${a.gc.total_ms} (${a.gc.share_pct} %) | ${a.store_busy_retries.retried} (${a.store_busy_retries.exhausted}) |`;
      }),
      '',
      'Stages of a keyed request: count × mean ms (bucket bound of the p99, share over 50 ms).',
      '',
      `| stored | clients | ${stages.join(' | ')} |`,
      `|---|---|${stages.map(() => '---').join('|')}|`,
      ...withApi.map(
        (s) => `| ${s.stored} | ${s.clients} | ${stages.map((k) => timed(s.api!.stages[k])).join(' | ')} |`,
      ),
      '',
      "Store round trips as the API's driver timed them, by command: count × mean ms (bucket bound of the p99, share over 50 ms).",
      '',
      `| stored | clients | ${commands.join(' | ')} |`,
      `|---|---|${commands.map(() => '---').join('|')}|`,
      ...withApi.map(
        (s) => `| ${s.stored} | ${s.clients} | ${commands.map((k) => timed(s.api!.store_commands[k])).join(' | ')} |`,
      ),
    );
  }
  lines.push(
    '',
    '## Store fills',
    '',
    ...r.fills.map((f) => `- ${f.stored} sessions stored, ${f.seconds.toFixed(1)} s, ${f.via}`),
  );
  if (r.soak) {
    const k = r.soak;
    lines.push(
      '',
      `## Soak: ${k.clients} clients for ${k.duration_s} s`,
      '',
      `${k.requests_per_s} req/s; answers ${codes(k.statuses)}; 5xx: ${k.server_errors}.`,
      `API RSS each minute after the first (MiB): ${k.api_rss_mib.join(', ')}; growth first → last ${cell(k.api_rss_growth_pct)} %.`,
      `FerretDB RSS (MiB): ${k.store_rss_mib.join(', ')}.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const W = 460,
  H = 300,
  M = { left: 56, right: 16, top: 36, bottom: 44 };

function panel(
  steps: LoadStep[],
  title: string,
  yLabel: string,
  value: (s: LoadStep) => number,
  offsetX: number,
): string {
  const clients = [...new Set(steps.map((s) => s.clients))].sort((a, b) => a - b);
  const stores = [...new Set(steps.map((s) => s.stored))].sort((a, b) => a - b);
  const innerW = W - M.left - M.right,
    innerH = H - M.top - M.bottom;
  const max = Math.max(1, ...steps.map(value)) * 1.1;
  const x = (c: number) =>
    M.left +
    (clients.length === 1
      ? innerW / 2
      : (Math.log2(c / clients[0]) / Math.log2(clients.at(-1)! / clients[0])) * innerW);
  const y = (v: number) => M.top + innerH - (v / max) * innerH;
  const parts = [
    `<g transform="translate(${offsetX},0)">`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-weight="bold">${title}</text>`,
  ];
  for (let i = 0; i <= 4; i += 1) {
    const v = (max / 4) * i;
    parts.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/><text x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`,
    );
  }
  for (const c of clients) parts.push(`<text x="${x(c)}" y="${H - M.bottom + 16}" text-anchor="middle">${c}</text>`);
  parts.push(
    `<text x="${W / 2}" y="${H - 8}" text-anchor="middle">clients</text>`,
    `<text transform="translate(14,${M.top + innerH / 2}) rotate(-90)" text-anchor="middle">${yLabel}</text>`,
  );
  stores.forEach((stored, i) => {
    const pts = steps
      .filter((s) => s.stored === stored)
      .sort((a, b) => a.clients - b.clients)
      .map((s) => `${x(s.clients).toFixed(1)},${y(value(s)).toFixed(1)}`);
    parts.push(
      `<polyline fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2" points="${pts.join(' ')}"/>`,
    );
  });
  parts.push('</g>');
  return parts.join('\n');
}

export function renderChart(r: LoadResults): string {
  const stores = [...new Set(r.steps.map((s) => s.stored))].sort((a, b) => a - b);
  const worstP99 = (s: LoadStep) => Math.max(0, ...OPERATIONS.map((op) => s.operations[op].p99_ms ?? 0));
  const legend = stores.map(
    (n, i) =>
      `<g transform="translate(${20 + i * 200},${H + 14})"><rect width="14" height="4" y="-4" fill="${COLOURS[i % COLOURS.length]}"/><text x="20">${n} sessions stored</text></g>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 2}" height="${H + 44}" font-family="sans-serif" font-size="11">`,
    '<rect width="100%" height="100%" fill="white"/>',
    panel(r.steps, 'Throughput (all operations)', 'requests/s', (s) => s.requests_per_s, 0),
    panel(r.steps, 'p99 of the slowest operation', 'ms', worstP99, W),
    ...legend,
    `<text x="20" y="${H + 36}" fill="#555">${`bench:load ${String(r.meta.label)}, ${String(r.meta.date)}, load average ${String(r.meta.loadavg_start)}`.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`,
    '</svg>',
  ].join('\n');
}
