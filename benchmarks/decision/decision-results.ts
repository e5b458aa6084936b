/**
 * Summaries of a decision run, and the Markdown and SVG written beside the JSON. The percentiles
 * are scripts/test-support/percentiles.ts (nearest rank, so a p99 is a time that occurred). The
 * inference chart helper (results-chart.ts) plots against batch size, which this run has none of,
 * so the two small bar panels here are drawn directly.
 */
import { median, summarise, type LatencySummary } from '../../scripts/test-support/percentiles';
import type { ApplicantTiming } from './applicants';

export const CHECKS = ['document', 'antispoof', 'liveness', 'face_match'] as const;
export const PROCESSES = ['inference', 'api', 'worker', 'ferretdb', 'redis', 'bench_client'] as const;
export type ProcessName = (typeof PROCESSES)[number];

export interface PassResult {
  pass: number;
  applicants: number;
  decided: number;
  duration_s: number;
  verifications_per_minute: number;
  load_avg_1m: { start: number; end: number; mean: number };
  document_read: LatencySummary;
  /** Client view: submit sent → first poll answering "done". */
  submit_to_decided: LatencySummary;
  /** Submit sent → the decided_at the worker wrote (no poll delay in it). */
  submit_to_decided_at_server: LatencySummary;
  /** Selfie sent → decided_at (absent from results written before it was kept per pass). */
  selfie_to_decided_at_server?: LatencySummary;
  cpu_ms_per_verification: Record<ProcessName | 'total', number>;
  /** The same less the status polls' own cost (polls in the pass × the calibrated CPU per poll). */
  cpu_ms_per_verification_without_polls: Record<ProcessName | 'total', number>;
  polls: number;
  /** session.run calls and executor ms per verification, per model (inference_run_seconds). */
  model_runs_per_verification?: Record<string, ModelRuns>;
}

/**
 * One model's work per verification: session.run calls and executor ms; rows run (batch sizes
 * summed) and rows answered from the service's row cache without a run (hit or shared). Rows are
 * absent from results written before they were measured.
 */
export interface ModelRuns {
  runs: number;
  run_ms: number;
  rows?: number;
  cached_rows?: number;
}

export interface Summary {
  n: number;
  outcomes: Record<string, number>;
  document_read: LatencySummary;
  liveness_upload: LatencySummary;
  selfie_upload: LatencySummary;
  session_create: LatencySummary;
  capture_start: LatencySummary;
  submit_request: LatencySummary;
  submit_to_decided: LatencySummary;
  submit_to_decided_at_server: LatencySummary;
  /** Absent in results written before the figure existed. */
  selfie_to_decided_at_server?: LatencySummary;
  decided_to_webhook: LatencySummary;
  applicant_total: LatencySummary;
  checks: Record<string, LatencySummary>;
  verifications_per_minute: number | null;
  cpu_ms_per_verification: Record<string, number | null>;
  cpu_ms_per_verification_without_polls: Record<string, number | null>;
  polls_per_verification: number | null;
}

const round1 = (v: number) => Math.round(v * 10) / 10;

export function summarisePass(
  pass: number,
  timings: ApplicantTiming[],
  window: { start: number; end: number },
  cpuMs: Record<ProcessName, number>,
  load: PassResult['load_avg_1m'],
  cpuPerPoll: Record<ProcessName, number>,
): PassResult {
  const decided = timings.filter((t) => Number.isFinite(t.submit_to_decided_ms)).length;
  const duration = (window.end - window.start) / 1000;
  const polls = timings.reduce((n, t) => n + t.polls, 0);
  const per = (used: (p: ProcessName) => number) => {
    const cpu = Object.fromEntries(
      PROCESSES.map((p) => [p, round1(Math.max(0, used(p)) / Math.max(1, decided))]),
    ) as Record<ProcessName, number>;
    return { ...cpu, total: round1(PROCESSES.reduce((s, p) => s + cpu[p], 0)) };
  };
  return {
    pass,
    applicants: timings.length,
    decided,
    duration_s: round1(duration),
    verifications_per_minute: round1((decided / duration) * 60),
    load_avg_1m: load,
    document_read: summarise(timings.map((t) => t.document_ms)),
    selfie_to_decided_at_server: summarise(timings.map((t) => t.selfie_to_decided_at_ms)),
    submit_to_decided: summarise(timings.map((t) => t.submit_to_decided_ms)),
    submit_to_decided_at_server: summarise(timings.map((t) => t.submit_to_decided_at_ms)),
    cpu_ms_per_verification: per((p) => cpuMs[p]),
    cpu_ms_per_verification_without_polls: per((p) => cpuMs[p] - polls * cpuPerPoll[p]),
    polls,
  };
}

export function summariseAll(
  timings: ApplicantTiming[],
  passes: PassResult[],
  webhookAt: Map<string, number>,
): Summary {
  const outcomes: Record<string, number> = {};
  for (const t of timings) {
    const key = t.failure_reason ? `${t.status} (${t.failure_reason})` : t.status;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  const cpuKeys = [...PROCESSES, 'total'] as const;
  return {
    n: timings.length,
    outcomes,
    document_read: summarise(timings.map((t) => t.document_ms)),
    liveness_upload: summarise(timings.map((t) => t.liveness_ms)),
    selfie_upload: summarise(timings.map((t) => t.selfie_ms)),
    session_create: summarise(timings.map((t) => t.create_ms)),
    capture_start: summarise(timings.map((t) => t.start_ms)),
    submit_request: summarise(timings.map((t) => t.submit_ms)),
    submit_to_decided: summarise(timings.map((t) => t.submit_to_decided_ms)),
    submit_to_decided_at_server: summarise(timings.map((t) => t.submit_to_decided_at_ms)),
    selfie_to_decided_at_server: summarise(timings.map((t) => t.selfie_to_decided_at_ms)),
    decided_to_webhook: summarise(
      timings.flatMap((t) => (webhookAt.has(t.session_id) ? [webhookAt.get(t.session_id)! - t.decided_at] : [])),
    ),
    applicant_total: summarise(
      timings.map(
        (t) => t.create_ms + t.start_ms + t.document_ms + t.liveness_ms + t.selfie_ms + t.submit_to_decided_ms,
      ),
    ),
    checks: Object.fromEntries(
      CHECKS.map((c) => [c, summarise(timings.flatMap((t) => (t.checks[c] ? [t.checks[c].duration_ms] : [])))]),
    ),
    verifications_per_minute: median(passes.map((p) => p.verifications_per_minute)),
    cpu_ms_per_verification: Object.fromEntries(
      cpuKeys.map((k) => [k, median(passes.map((p) => p.cpu_ms_per_verification[k]))]),
    ),
    cpu_ms_per_verification_without_polls: Object.fromEntries(
      cpuKeys.map((k) => [k, median(passes.map((p) => p.cpu_ms_per_verification_without_polls[k]))]),
    ),
    polls_per_verification: median(timings.map((t) => t.polls)),
  };
}

export interface Target {
  figure: string;
  measured: number | null;
  target: string;
  met: boolean | null;
}

export function targets(passes: PassResult[]): Target[] {
  const submit = median(passes.map((p) => p.submit_to_decided_at_server.p99_ms ?? Infinity));
  const seen = median(passes.map((p) => p.submit_to_decided.p99_ms ?? Infinity));
  const doc = median(passes.map((p) => p.document_read.p99_ms ?? Infinity));
  const selfie = median(
    passes.flatMap((p) => (p.selfie_to_decided_at_server ? [p.selfie_to_decided_at_server.p99_ms ?? Infinity] : [])),
  );
  const cpu = median(passes.map((p) => p.cpu_ms_per_verification_without_polls.total));
  const rate = median(passes.map((p) => p.verifications_per_minute));
  return [
    {
      figure: 'submit → decided p99 (submit sent → decided_at; median of passes)',
      measured: submit,
      target: '≤ 1000 ms',
      met: submit === null ? null : submit <= 1000,
    },
    {
      figure: 'submit → decided p99 as the polling client saw it (median of passes)',
      measured: seen,
      target: '≤ 1000 ms',
      met: seen === null ? null : seen <= 1000,
    },
    {
      figure: 'document read at upload p99 (median of passes)',
      measured: doc,
      target: '≤ 1500 ms',
      met: doc === null ? null : doc <= 1500,
    },
    {
      figure: 'selfie sent → decided p99 (median of passes)',
      measured: selfie,
      target: '≤ 2000 ms',
      met: selfie === null ? null : selfie <= 2000,
    },
    {
      figure: 'CPU per verification, all processes, less polls (median of passes)',
      measured: cpu,
      target: '≤ 1200 ms',
      met: cpu === null ? null : cpu <= 1200,
    },
    {
      figure: 'verifications per minute (median of passes; a rate, not ms)',
      measured: rate,
      target: '≥ 80 per minute',
      met: rate === null ? null : rate >= 80,
    },
  ];
}

const ms = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : `${Math.round(v)}`;

export function renderMarkdown(r: {
  generated_at: string;
  command: string;
  machine: Record<string, unknown>;
  summary: Summary;
  passes: PassResult[];
  targets: Target[];
  options: Record<string, unknown>;
  errors?: string[];
}): string {
  const s = r.summary;
  const row = (name: string, l: LatencySummary, note = '') =>
    `| ${name} | ${l.n} | ${ms(l.p50_ms)} | ${ms(l.p95_ms)} | ${ms(l.p99_ms)} | ${ms(l.mean_ms)} | ${note} |`;
  const m = r.machine as {
    cpus: number;
    cpu_model: string;
    node: string;
    load_avg_start: number[];
    load_avg_end: number[];
  };
  return [
    `# bench:decision — ${r.generated_at}`,
    '',
    `\`${r.command}\` — ${r.options.applicants} applicants × ${r.options.passes} pass(es), ${r.options.concurrency} at a time, status polled every ${r.options.poll_ms} ms.`,
    `Machine: ${m.cpus} × ${m.cpu_model}, node ${m.node}; load average (1/5/15 min) ${m.load_avg_start.join(' / ')} at the start, ${m.load_avg_end.join(' / ')} at the end (shared machine).`,
    `Outcomes: ${Object.entries(s.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}${r.errors?.length ? `; ${r.errors.length} applicant(s) stopped by an error (listed at the end, left out of every figure)` : ''}.`,
    '',
    '## Targets',
    '| figure | measured (ms) | target | met |',
    '|---|---|---|---|',
    ...r.targets.map(
      (t) => `| ${t.figure} | ${ms(t.measured)} | ${t.target} | ${t.met === null ? '—' : t.met ? 'yes' : 'no'} |`,
    ),
    '',
    `Verifications per minute (median of passes): **${s.verifications_per_minute ?? '—'}**; CPU per verification, all processes: **${ms(s.cpu_ms_per_verification.total)} ms**.`,
    '',
    '## Latency, all passes pooled (ms)',
    '| step | n | p50 | p95 | p99 | mean | what |',
    '|---|---|---|---|---|---|---|',
    row('document read at upload', s.document_read, 'PUT /document/front: decode, store, read (gRPC verify-document)'),
    row(
      'liveness upload',
      s.liveness_upload,
      'POST /liveness, multipart frames: the liveness check without the selfie runs here for its face-found gate',
    ),
    row(
      'selfie upload',
      s.selfie_upload,
      'PUT /selfie: antispoof, liveness with the selfie and face match, side by side',
    ),
    row('submit → decided', s.submit_to_decided_at_server, 'submit sent → decided_at the worker wrote (same clock)'),
    ...(s.selfie_to_decided_at_server
      ? [
          row(
            'selfie sent → decided',
            s.selfie_to_decided_at_server,
            'what the applicant waits after the last photo: selfie upload + submit + decision',
          ),
        ]
      : []),
    row('submit → decided, polled', s.submit_to_decided, `submit sent → first status poll answering decision done`),
    row('decided → webhook received', s.decided_to_webhook, 'decided_at → loopback receiver got the copy'),
    row('session create', s.session_create, 'POST /v1/sessions'),
    row('capture start', s.capture_start, 'POST /start'),
    row('submit request', s.submit_request, 'POST /submit answered 202'),
    row('applicant, end to end', s.applicant_total, "create → decided, the applicant's own steps back to back"),
    '',
    '## Per-check `duration_ms` from the evidence report (ms)',
    '| check | n | p50 | p95 | p99 | mean | when it runs |',
    '|---|---|---|---|---|---|---|',
    row('document', s.checks.document, 'at document upload'),
    row('antispoof', s.checks.antispoof, 'at selfie upload'),
    row(
      'liveness',
      s.checks.liveness,
      'at selfie upload, with the selfie (again at decision only for frames retaken after it)',
    ),
    row('face_match', s.checks.face_match, 'at selfie upload (again at decision only for a document retaken after it)'),
    '',
    '## CPU per verification (ms, user + system, median of passes)',
    `| ${PROCESSES.join(' | ')} | total |`,
    `|${PROCESSES.map(() => '---').join('|')}|---|`,
    `| ${PROCESSES.map((p) => ms(s.cpu_ms_per_verification[p])).join(' | ')} | ${ms(s.cpu_ms_per_verification.total)} |`,
    `| ${PROCESSES.map((p) => ms(s.cpu_ms_per_verification_without_polls[p])).join(' | ')} | ${ms(s.cpu_ms_per_verification_without_polls.total)} |`,
    '',
    `First row: as measured, including the benchmark's status polls (median ${s.polls_per_verification ?? '—'} per verification). Second row: less the polls, at the CPU per poll measured after the passes (see \`poll_cost\` in the JSON).`,
    '',
    "## Model runs per verification (executor `session.run`, from the service's metrics, median of passes)",
    '| model | runs | rows run | rows from the row cache | ms |',
    '|---|---|---|---|---|',
    ...modelRows(r.passes),
    '',
    '## Passes',
    '| pass | decided | seconds | verif./min | document read p50 / p99 | submit → decided p50 / p99 | polled p50 / p99 | CPU ms / verif. (less polls) | load 1 min (start / mean / end) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...r.passes.map(
      (p) =>
        `| ${p.pass} | ${p.decided}/${p.applicants} | ${p.duration_s} | ${p.verifications_per_minute} | ${ms(p.document_read.p50_ms)} / ${ms(p.document_read.p99_ms)} | ${ms(p.submit_to_decided_at_server.p50_ms)} / ${ms(p.submit_to_decided_at_server.p99_ms)} | ${ms(p.submit_to_decided.p50_ms)} / ${ms(p.submit_to_decided.p99_ms)} | ${ms(p.cpu_ms_per_verification.total)} (${ms(p.cpu_ms_per_verification_without_polls.total)}) | ${p.load_avg_1m.start} / ${p.load_avg_1m.mean} / ${p.load_avg_1m.end} |`,
    ),
    ...(r.errors ?? []).flatMap((e, i) => (i === 0 ? ['', '## Errors', `- ${e}`] : [`- ${e}`])),
    '',
  ].join('\n');
}

function modelRows(passes: PassResult[]): string[] {
  const models = [...new Set(passes.flatMap((p) => Object.keys(p.model_runs_per_verification ?? {})))];
  const rows = models
    .map((m) => {
      const of = (k: keyof ModelRuns) =>
        median(
          passes.flatMap((p) =>
            p.model_runs_per_verification?.[m]?.[k] !== undefined ? [p.model_runs_per_verification[m][k]] : [],
          ),
        );
      return { m, runs: of('runs') ?? 0, ms: of('run_ms') ?? 0, rows: of('rows'), cached: of('cached_rows') };
    })
    .filter((r) => r.runs > 0 || (r.cached ?? 0) > 0)
    .sort((a, b) => b.ms - a.ms);
  const total = rows.reduce((s, r) => s + r.ms, 0);
  const sum = (k: 'runs' | 'rows' | 'cached') => Math.round(rows.reduce((s, r) => s + (r[k] ?? 0), 0) * 10) / 10;
  const cell = (v: number | null | undefined) => (v === undefined || v === null ? '–' : String(v));
  return [
    ...rows.map((r) => `| ${r.m} | ${r.runs} | ${cell(r.rows)} | ${cell(r.cached)} | ${Math.round(r.ms)} |`),
    `| all models | ${sum('runs')} | ${sum('rows')} | ${sum('cached')} | ${Math.round(total)} |`,
  ];
}

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Left: p50 (dark) and p99 (light) per step and check, targets in red. Right: CPU per verification per process. */
export function renderSvg(s: Summary, subtitle: string): string {
  const bars: Array<{ label: string; l: LatencySummary; target?: number }> = [
    { label: 'document read at upload', l: s.document_read, target: 1500 },
    { label: 'liveness upload', l: s.liveness_upload },
    { label: 'selfie upload (antispoof, liveness, face match)', l: s.selfie_upload },
    { label: 'submit → decided', l: s.submit_to_decided_at_server, target: 1000 },
    { label: 'check: document', l: s.checks.document },
    { label: 'check: antispoof', l: s.checks.antispoof },
    { label: 'check: liveness', l: s.checks.liveness },
    { label: 'check: face_match', l: s.checks.face_match },
  ];
  const W = 520,
    rowH = 30,
    top = 50,
    left = 170,
    right = 30;
  const H = top + bars.length * rowH + 50;
  const max = Math.max(1500, ...bars.map((b) => b.l.p99_ms ?? 0)) * 1.05;
  const x = (v: number) => left + (v / max) * (W - left - right);
  const step = [250, 500, 1000, 2000, 5000, 10_000, 20_000].find((c) => max / c <= 8) ?? 50_000;
  const parts: string[] = [
    `<text x="${W / 2}" y="22" text-anchor="middle" font-weight="bold">Latency p50 (dark) and p99 (light), all passes pooled, ms</text>`,
  ];
  for (let t = 0; t <= max; t += step)
    parts.push(
      `<line x1="${x(t)}" x2="${x(t)}" y1="${top - 8}" y2="${top + bars.length * rowH}" stroke="#e5e5e5"/><text x="${x(t)}" y="${top + bars.length * rowH + 16}" text-anchor="middle">${t}</text>`,
    );
  bars.forEach((b, i) => {
    const y = top + i * rowH;
    parts.push(`<text x="${left - 8}" y="${y + 15}" text-anchor="end">${esc(b.label)}</text>`);
    if (b.l.p99_ms !== null)
      parts.push(
        `<rect x="${left}" y="${y + 3}" width="${(x(b.l.p99_ms) - left).toFixed(1)}" height="18" fill="#9ecae1"/><text x="${x(b.l.p99_ms) + 4}" y="${y + 16}" fill="#555">${Math.round(b.l.p99_ms)}</text>`,
      );
    if (b.l.p50_ms !== null)
      parts.push(
        `<rect x="${left}" y="${y + 7}" width="${(x(b.l.p50_ms) - left).toFixed(1)}" height="10" fill="#08519c"/>`,
      );
    if (b.target)
      parts.push(
        `<line x1="${x(b.target)}" x2="${x(b.target)}" y1="${y}" y2="${y + 24}" stroke="#d62728" stroke-width="2"/>`,
      );
  });
  parts.push(
    `<text x="${(left + W) / 2}" y="${top + bars.length * rowH + 34}" text-anchor="middle">ms (red: target for p99)</text>`,
  );

  const cpu = PROCESSES.map((p) => ({
    p,
    v: s.cpu_ms_per_verification[p] ?? 0,
    own: s.cpu_ms_per_verification_without_polls[p] ?? 0,
  }));
  const cmax = Math.max(1, ...cpu.map((c) => c.v)) * 1.15;
  const cx = (v: number) => 110 + (v / cmax) * (W - 110 - right);
  const right2: string[] = [
    `<g transform="translate(${W},0)">`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-weight="bold">CPU per verification, ms (total ${Math.round(s.cpu_ms_per_verification_without_polls.total ?? 0)} less polls)</text>`,
  ];
  cpu.forEach((c, i) => {
    const y = top + i * rowH;
    right2.push(
      `<text x="102" y="${y + 15}" text-anchor="end">${c.p}</text><rect x="110" y="${y + 3}" width="${(cx(c.v) - 110).toFixed(1)}" height="18" fill="#c7e9c0"/><rect x="110" y="${y + 3}" width="${(cx(c.own) - 110).toFixed(1)}" height="18" fill="#31a354"/><text x="${cx(c.v) + 4}" y="${y + 16}">${Math.round(c.v)}</text>`,
    );
  });
  right2.push(
    `<text x="${W / 2}" y="${top + PROCESSES.length * rowH + 20}" text-anchor="middle" fill="#555">dark: less the benchmark's status polls; light: as measured</text>`,
    `<text x="${W / 2}" y="${top + PROCESSES.length * rowH + 38}" text-anchor="middle" fill="#555">verifications per minute: ${s.verifications_per_minute ?? '—'}</text>`,
    '</g>',
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 2}" height="${H + 20}" font-family="sans-serif" font-size="11">`,
    '<rect width="100%" height="100%" fill="white"/>',
    ...parts,
    ...right2,
    `<text x="20" y="${H + 10}" fill="#555">${esc(subtitle)}</text>`,
    '</svg>',
  ].join('\n');
}
