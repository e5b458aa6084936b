/**
 * The applicants and what one of them does, over HTTP as the hosted page does: create the session
 * (the integrator's call), start the capture, upload the passport (read at upload), the liveness
 * frames and the selfie (antispoof at upload), submit, then poll the status until the decision is
 * done and fetch the evidence report. Every applicant is made by the project's own generators
 * (.state/testdata): clean synthetic TD3 passports printed with a real portrait, augmented selfies
 * of the same photo, and synthetic head-motion sequences of the same person that perform their
 * challenge (pinned with the sandbox `liveness_challenge`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './decision-stack';
import { distinctImage } from './distinct-images';

const TESTDATA = path.join(ROOT, '.state', 'testdata');
export const IDENTITIES = ['astronaut', 'grace-hopper', 'bearded-man'];

export interface Applicant {
  identity: string;
  passport: { file: string; image: Buffer; name: string; dob: string };
  selfie: { file: string; image: Buffer };
  liveness: { name: string; frames: Buffer[]; challenge: string[] };
}

interface DocumentLabel {
  file: string;
  variant: string;
  format: string;
  expected: { fields: { name: string; birth_date: string } };
  generation: { portrait: string };
}
interface Sequence {
  name: string;
  frames: string[];
  challenge: string[];
  kind: string;
}

/**
 * n applicants cycling over identities, then each identity's passports, sequences and selfies.
 * `first` numbers them across the whole run so no two applicants (nor two frames) send the same
 * bytes, see distinct-images.ts.
 */
export async function loadApplicants(n: number, first = 0): Promise<Applicant[]> {
  const labels = (
    JSON.parse(readFileSync(path.join(TESTDATA, 'documents/labels.json'), 'utf8')) as {
      documents: DocumentLabel[];
    }
  ).documents;
  const sequences = readFileSync(path.join(TESTDATA, 'liveness/sequences.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Sequence);
  const pools = IDENTITIES.map((identity) => {
    const passports = labels.filter(
      (d) => d.format === 'TD3' && d.variant === 'clean' && d.generation.portrait === identity,
    );
    const performing = sequences.filter(
      (s) => s.name.startsWith(`${identity}__`) && s.kind === 'synthetic-performs-challenge',
    );
    if (!passports.length || !performing.length)
      throw new Error(`no clean TD3 passport or performing liveness sequence for ${identity}: run scripts/setup.sh`);
    return { identity, passports, performing };
  });
  const cache = new Map<string, Buffer>();
  const read = (file: string) => cache.get(file) ?? cache.set(file, readFileSync(file)).get(file)!;
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const pool = pools[i % pools.length];
      const round = Math.floor(i / pools.length);
      const label = pool.passports[round % pool.passports.length];
      const sequence = pool.performing[round % pool.performing.length];
      const frames = sequence.frames.map((f) => read(path.join(TESTDATA, 'liveness', f)));
      while (frames.length < 8) frames.push(frames[frames.length - 1]); // the API takes at least 8 frames
      const selfieFile = `${pool.identity}__augmented-${(round % 4) + 1}.jpg`;
      const seed = (first + i) * 64;
      return {
        identity: pool.identity,
        passport: {
          file: label.file,
          image: await distinctImage(read(path.join(TESTDATA, 'documents', label.file)), seed),
          name: label.expected.fields.name,
          dob: label.expected.fields.birth_date,
        },
        selfie: {
          file: selfieFile,
          image: await distinctImage(read(path.join(TESTDATA, 'faces', selfieFile)), seed + 1),
        },
        liveness: {
          name: sequence.name,
          frames: await Promise.all(frames.map((f, k) => distinctImage(f, seed + 2 + k))),
          challenge: sequence.challenge,
        },
      };
    }),
  );
}

export interface ApplicantTiming {
  index: number;
  identity: string;
  session_id: string;
  started_at: number;
  create_ms: number;
  start_ms: number;
  document_ms: number;
  liveness_ms: number;
  selfie_ms: number;
  submit_ms: number;
  /** Submit sent → a status poll first answered a terminal state (client view, ≤ poll interval late). */
  submit_to_decided_ms: number;
  /** Submit sent → decided_at written by the worker (server clock, same machine). */
  submit_to_decided_at_ms: number;
  /**
   * Selfie sent → decided_at: what the applicant waits once the last photo is taken. The checks that
   * need the selfie run during its upload, so this shows the work that submit → decided no longer holds.
   */
  selfie_to_decided_at_ms: number;
  decided_at: number;
  status: string;
  failure_reason: string | null;
  checks: Record<string, { verdict: string; duration_ms: number }>;
  polls: number;
  document_readable: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(url: string, init: RequestInit): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  const ms = performance.now() - started;
  return { status: res.status, body: text ? JSON.parse(text) : {}, ms };
}

function must(what: string, answer: { status: number; body: unknown }, status = 200): void {
  if (answer.status !== status)
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
}

/** One applicant end to end; throws on any unexpected answer. */
export async function runApplicant(
  base: string,
  apiKey: string,
  webhookUrl: string,
  a: Applicant,
  index: number,
  pollMs: number,
): Promise<ApplicantTiming> {
  const startedAt = Date.now();
  const created = await call(`${base}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      return_url: 'https://example.com/done',
      webhook_url: webhookUrl,
      expected_name: a.passport.name,
      expected_dob: a.passport.dob,
      sandbox: { liveness_challenge: a.liveness.challenge },
    }),
  });
  must('POST /v1/sessions', created, 201);
  const id = created.body.session_id as string;
  const capture = `${base}/v1/capture/${id}`;
  const started = await call(`${capture}/start`, { method: 'POST' });
  must('capture start', started);
  const auth = { authorization: `Bearer ${started.body.capture_token}` };

  const document = await call(`${capture}/document/front?type=passport`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'image/jpeg' },
    body: new Uint8Array(a.passport.image),
  });
  must('document upload', document);
  const form = new FormData();
  for (const frame of a.liveness.frames)
    form.append('frame', new Blob([new Uint8Array(frame)], { type: 'image/jpeg' }), 'frame.jpg');
  form.append('timestamps', JSON.stringify(a.liveness.frames.map((_, i) => i * 150)));
  const liveness = await call(`${capture}/liveness`, { method: 'POST', headers: auth, body: form });
  must('liveness upload', liveness);
  const selfieSent = Date.now();
  const selfie = await call(`${capture}/selfie`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'image/jpeg' },
    body: new Uint8Array(a.selfie.image),
  });
  must('selfie upload', selfie);

  const submitSent = Date.now();
  const submitT0 = performance.now();
  const submit = await call(`${capture}/submit`, { method: 'POST', headers: auth });
  must('submit', submit, 202);
  let polls = 0;
  let decidedMs = NaN;
  for (const until = Date.now() + 120_000; ;) {
    const status = await call(capture, { method: 'GET' });
    polls += 1;
    if (status.body.decision === 'done') {
      decidedMs = performance.now() - submitT0;
      break;
    }
    if (Date.now() > until) throw new Error(`session ${id} not decided 120 s after submit`);
    await sleep(pollMs);
  }
  const report = await call(`${base}/v1/sessions/${id}/report`, {
    method: 'GET',
    headers: { 'x-api-key': apiKey },
  });
  must('report', report);
  const result = await call(`${base}/v1/sessions/${id}/result`, {
    method: 'GET',
    headers: { 'x-api-key': apiKey },
  });
  must('result', result);
  const decidedAt = Date.parse(report.body.decided_at as string);
  const checks = Object.fromEntries(
    Object.entries(report.body.checks as Record<string, { verdict: string; duration_ms: number }>).map(([name, c]) => [
      name,
      { verdict: c.verdict, duration_ms: c.duration_ms },
    ]),
  );
  return {
    index,
    identity: a.identity,
    session_id: id,
    started_at: startedAt,
    create_ms: created.ms,
    start_ms: started.ms,
    document_ms: document.ms,
    liveness_ms: liveness.ms,
    selfie_ms: selfie.ms,
    submit_ms: submit.ms,
    submit_to_decided_ms: decidedMs,
    submit_to_decided_at_ms: decidedAt - submitSent,
    selfie_to_decided_at_ms: decidedAt - selfieSent,
    decided_at: decidedAt,
    status: result.body.status as string,
    failure_reason: (result.body.failure_reason as string | null) ?? null,
    checks,
    polls,
    document_readable: document.body.readable === true,
  };
}

/** Runs `task` over `items` with `width` in flight. */
export async function pool<T, R>(
  items: T[],
  width: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i], i);
      }
    }),
  );
  return results;
}
