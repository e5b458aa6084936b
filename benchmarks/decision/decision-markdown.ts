/** The Markdown written beside a decision run's JSON: targets, latency, per-check and CPU tables, passes. */
import { median, type LatencySummary } from '../../scripts/test-support/percentiles';
import { PROCESSES, type ModelRuns, type PassResult, type Summary } from './decision-summary';
import type { Target } from './decision-targets';

/** What the run was asked for, as the report's first line states it. */
export interface RunOptions {
  applicants: number;
  passes: number;
  concurrency: number;
  poll_ms: number;
  /** Production sessions with the server-paced challenge (older runs lack it). */
  paced?: boolean;
}

/** The machine the run measured, load averages (1/5/15 min) at its start and end. */
export interface RunMachine {
  cpus: number;
  cpu_model: string;
  node: string;
  load_avg_start: number[];
  load_avg_end: number[];
}

/** The part of a decision run's JSON that the Markdown and the SVG are drawn from. */
export interface DecisionReport {
  generated_at: string;
  command: string;
  machine: RunMachine;
  summary: Summary;
  passes: PassResult[];
  targets: Target[];
  options: RunOptions;
  errors?: string[];
  pad_cases?: PadCases;
}

/** The recapture-like portrait's applicants, run after the passes and counted in no figure. */
export interface PadCases {
  identity: string;
  source: string;
  outcomes: Array<{ status: string; failure_reason: string | null; antispoof: string | null }>;
}

function padCaseLine(p: PadCases | undefined): string[] {
  if (!p) return [];
  const counts: Record<string, number> = {};
  for (const o of p.outcomes) {
    const key = o.failure_reason ? `${o.status} (${o.failure_reason})` : o.status;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  const shown = Object.entries(counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return [
    `PAD case, apart from every figure: ${p.outcomes.length} applicant(s) showing ${p.identity}, ${p.source}: ${shown}.`,
  ];
}

const ms = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : `${Math.round(v)}`;

export function renderMarkdown(r: DecisionReport): string {
  const s = r.summary;
  const row = (name: string, l: LatencySummary, note = '') =>
    `| ${name} | ${l.n} | ${ms(l.p50_ms)} | ${ms(l.p95_ms)} | ${ms(l.p99_ms)} | ${ms(l.mean_ms)} | ${note} |`;
  const m = r.machine;
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
    ...padCaseLine(r.pad_cases),
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
    r.options.paced
      ? row(
          'paced challenge',
          s.liveness_upload,
          'production: first step revealed → the answer asking for the selfie, every step performed live and its frames posted in chunks',
        )
      : row(
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
    ...(s.inference_executor_cpu_ms_per_verification === undefined
      ? []
      : [
          '',
          `Of inference's ${ms(s.cpu_ms_per_verification.inference)} ms, the executor process (onnxruntime's \`session.run\`) used ${ms(s.inference_executor_cpu_ms_per_verification)} ms and the front (gRPC, decoding, cropping, the checks' own code) ${ms((s.cpu_ms_per_verification.inference ?? 0) - s.inference_executor_cpu_ms_per_verification)} ms.${frontGcNote(s)}`,
        ]),
    '',
    "## Model runs per verification (executor `session.run`, from the service's metrics, median of passes)",
    '| model | runs | rows run | rows from the row cache | ms (front: send to answer) | executor CPU ms |',
    '|---|---|---|---|---|---|',
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
      return {
        m,
        runs: of('runs') ?? 0,
        ms: of('run_ms') ?? 0,
        cpu: of('cpu_ms'),
        rows: of('rows'),
        cached: of('cached_rows'),
      };
    })
    .filter((r) => r.runs > 0 || (r.cached ?? 0) > 0)
    .sort((a, b) => b.ms - a.ms);
  const total = rows.reduce((s, r) => s + r.ms, 0);
  const sum = (k: 'runs' | 'rows' | 'cached' | 'cpu') =>
    Math.round(rows.reduce((s, r) => s + (r[k] ?? 0), 0) * 10) / 10;
  const cell = (v: number | null | undefined) => (v === undefined || v === null ? '–' : String(v));
  return [
    ...rows.map(
      (r) => `| ${r.m} | ${r.runs} | ${cell(r.rows)} | ${cell(r.cached)} | ${Math.round(r.ms)} | ${cell(r.cpu)} |`,
    ),
    `| all models | ${sum('runs')} | ${sum('rows')} | ${sum('cached')} | ${Math.round(total)} | ${rows.some((r) => r.cpu !== null && r.cpu !== undefined) ? Math.round(sum('cpu')) : '–'} |`,
  ];
}

/** The front's GC time and its share of the front's CPU, when the run measured it. */
function frontGcNote(s: Summary): string {
  const gc = s.inference_front_gc_ms_per_verification;
  const executor = s.inference_executor_cpu_ms_per_verification;
  if (gc === undefined || executor === undefined) return '';
  const front = (s.cpu_ms_per_verification.inference ?? 0) - executor;
  return ` The front spent ${ms(gc)} ms of that in garbage collection (${front > 0 ? Math.round((100 * gc) / front) : '—'} %, from its \`inference_nodejs_gc_duration_seconds\`).`;
}
