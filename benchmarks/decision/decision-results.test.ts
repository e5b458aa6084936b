import type { ApplicantTiming } from './applicant-run';
import { renderSvg } from './decision-chart';
import { renderMarkdown } from './decision-markdown';
import { summariseAll, summarisePass } from './decision-summary';
import { targets } from './decision-targets';

const applicant = (i: number, documentMs: number, decidedMs: number): ApplicantTiming => ({
  index: i,
  identity: 'astronaut',
  session_id: `ses_${i}`,
  started_at: 0,
  create_ms: 10,
  start_ms: 10,
  document_ms: documentMs,
  liveness_ms: 100,
  selfie_ms: 50,
  submit_ms: 5,
  submit_to_decided_ms: decidedMs + 100,
  submit_to_decided_at_ms: decidedMs,
  selfie_to_decided_at_ms: decidedMs + 900,
  decided_at: 1_000 + i,
  status: 'VERIFIED',
  failure_reason: null,
  checks: {
    document: { verdict: 'PASS', duration_ms: documentMs - 20 },
    liveness: { verdict: 'PASS', duration_ms: decidedMs - 10 },
  },
  polls: 10,
  document_readable: true,
});

const noPolls = { inference: 0, api: 0, worker: 0, ferretdb: 0, redis: 0, bench_client: 0 };
const load = { start: 1, end: 1, mean: 1 };

describe('decision results', () => {
  const timings = [applicant(0, 800, 400), applicant(1, 900, 700), applicant(2, 2000, 1200), applicant(3, 700, 300)];
  const cpu = { inference: 8000, api: 800, worker: 400, ferretdb: 1200, redis: 40, bench_client: 100 };

  it('divides CPU by decided applicants, and takes the polls out at the measured cost per poll', () => {
    const pass = summarisePass(1, timings, { start: 0, end: 60_000 }, cpu, load, {
      ...noPolls,
      api: 10,
      ferretdb: 20,
    });
    expect(pass.verifications_per_minute).toBe(4);
    expect(pass.cpu_ms_per_verification).toMatchObject({
      inference: 2000,
      api: 200,
      ferretdb: 300,
      total: 2635,
    });
    // 40 polls in the pass: 400 ms of API and 800 ms of FerretDB are the benchmark's own.
    expect(pass.cpu_ms_per_verification_without_polls).toMatchObject({
      inference: 2000,
      api: 100,
      ferretdb: 100,
      total: 2335,
    });
  });

  it('judges the targets on the decided_at figure and the document read, by the median of the passes', () => {
    const passes = [
      summarisePass(1, timings, { start: 0, end: 60_000 }, cpu, load, noPolls),
      summarisePass(2, timings.slice(0, 2), { start: 0, end: 60_000 }, cpu, load, noPolls),
      summarisePass(3, timings.slice(3), { start: 0, end: 60_000 }, cpu, load, noPolls),
    ];
    const [submit, polled, document] = targets(passes);
    expect(submit).toMatchObject({ measured: 700, met: true });
    expect(polled).toMatchObject({ measured: 800, met: true });
    expect(document).toMatchObject({ measured: 900, met: true });
    const [, , , selfie, cpuLine, rate] = targets(passes);
    const middle = (values: number[]) => [...values].sort((a, b) => a - b)[1];
    expect(selfie).toMatchObject({
      measured: middle(passes.map((p) => p.selfie_to_decided_at_server!.p99_ms!)),
      target: '≤ 2000 ms',
    });
    expect(cpuLine).toMatchObject({
      measured: middle(passes.map((p) => p.cpu_ms_per_verification_without_polls.total)),
      target: '≤ 1200 ms',
    });
    expect(rate).toMatchObject({
      measured: middle(passes.map((p) => p.verifications_per_minute)),
      target: '≥ 80 per minute',
    });
  });

  it('renders the tables and the chart, listing the errors', () => {
    const passes = [summarisePass(1, timings, { start: 0, end: 60_000 }, cpu, load, noPolls)];
    const summary = summariseAll(timings, passes, new Map([['ses_0', 1_100]]));
    expect(summary.outcomes).toEqual({ VERIFIED: 4 });
    expect(summary.decided_to_webhook).toMatchObject({ n: 1, p50_ms: 100 });
    const md = renderMarkdown({
      generated_at: 'now',
      command: 'npm run bench:decision',
      machine: { cpus: 2, cpu_model: 'x', node: 'v20', load_avg_start: [1, 1, 1], load_avg_end: [1, 1, 1] },
      summary,
      passes,
      targets: targets(passes),
      options: { applicants: 4, passes: 1, concurrency: 4, poll_ms: 250 },
      errors: ['pass 1 applicant 9: document upload answered 503'],
    });
    expect(md).toContain('| document read at upload | 4 | 800 |');
    expect(md).toContain('## Errors\n- pass 1 applicant 9');
    expect(renderSvg(summary, 'a < b')).toMatch(/^<svg[\s\S]*a &lt; b[\s\S]*<\/svg>$/);
  });

  it('reports the recapture-like portrait apart, by outcome, outside the outcomes of the measured applicants', () => {
    const passes = [summarisePass(1, timings, { start: 0, end: 60_000 }, cpu, load, noPolls)];
    const md = renderMarkdown({
      generated_at: 'now',
      command: 'npm run bench:decision',
      machine: { cpus: 2, cpu_model: 'x', node: 'v20', load_avg_start: [1, 1, 1], load_avg_end: [1, 1, 1] },
      summary: summariseAll(timings, passes, new Map()),
      passes,
      targets: targets(passes),
      options: { applicants: 4, passes: 1, concurrency: 4, poll_ms: 250 },
      pad_cases: {
        identity: 'grace-hopper',
        source: 'a scan of a print',
        outcomes: [
          { status: 'FAILED', failure_reason: 'SPOOF_DETECTED', antispoof: 'FAIL' },
          { status: 'FAILED', failure_reason: 'SPOOF_DETECTED', antispoof: 'FAIL' },
          { status: 'VERIFIED', failure_reason: null, antispoof: 'PASS' },
        ],
      },
    });
    expect(md).toContain('Outcomes: VERIFIED 4.\n');
    expect(md).toContain(
      'PAD case, apart from every figure: 3 applicant(s) showing grace-hopper, a scan of a print: FAILED (SPOOF_DETECTED) 2, VERIFIED 1.',
    );
  });
});
