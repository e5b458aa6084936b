/**
 * What one applicant does, over HTTP as the hosted page does: create the session (the
 * integrator's call), start the capture, upload the passport (read at upload), the liveness frames
 * and the selfie (antispoof at upload), submit, then poll the status until the decision is done
 * and fetch the evidence report.
 */
import type { Applicant } from './applicants';
import { performPacedLiveness } from './paced-liveness';

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
  /** With --paced: the steps the server revealed (4 when the challenge ran through at the first try). */
  paced_steps?: number;
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

/** The fields of the API's answers an applicant reads (the contract's shapes, trimmed to those). */
interface Created {
  session_id: string;
}
interface Started {
  capture_token: string;
}
interface DocumentRead {
  readable?: boolean;
}
interface CaptureStatus {
  decision?: string;
}
interface Report {
  decided_at: string;
  checks: Record<string, { verdict: string; duration_ms: number }>;
}
interface Result {
  status: string;
  failure_reason?: string | null;
}

/** One call, timed; the body is read as T, which must() confirms by the status before it is used. */
async function call<T = unknown>(url: string, init: RequestInit): Promise<{ status: number; body: T; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  const ms = performance.now() - started;
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, ms };
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
  /** Called as each step begins (store-profile.ts attributes the store's commands so). */
  step: (name: string) => void = () => undefined,
): Promise<ApplicantTiming> {
  const startedAt = Date.now();
  step('create');
  const paced = a.apiKey !== undefined;
  const key = a.apiKey ?? apiKey;
  const created = await call<Created>(`${base}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({
      return_url: 'https://example.com/done',
      // Production keys take only https webhooks: a paced run sends them to a closed loopback port
      // (refused at once, retried later), so its webhook timings are empty.
      webhook_url: paced ? 'https://127.0.0.1:9/hook' : webhookUrl,
      expected_name: a.passport.name,
      expected_dob: a.passport.dob,
      ...(paced ? {} : { sandbox: { liveness_challenge: a.liveness.challenge } }),
    }),
  });
  must('POST /v1/sessions', created, 201);
  const id = created.body.session_id;
  const capture = `${base}/v1/capture/${id}`;
  step('start');
  const started = await call<Started>(`${capture}/start`, { method: 'POST' });
  must('capture start', started);
  const auth = { authorization: `Bearer ${started.body.capture_token}` };

  step('document');
  const document = await call<DocumentRead>(`${capture}/document/front?type=passport`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'image/jpeg' },
    body: new Uint8Array(a.passport.image),
  });
  must('document upload', document);
  step('liveness');
  let liveness: { ms: number };
  let pacedSteps: number | undefined;
  if (paced) {
    const performed = await performPacedLiveness(capture, auth, a.identity, index + 1);
    if (performed.next !== 'selfie') throw new Error(`the paced challenge ended with "${performed.next}"`);
    liveness = performed;
    pacedSteps = performed.steps;
  } else {
    const form = new FormData();
    for (const frame of a.liveness.frames)
      form.append('frame', new Blob([new Uint8Array(frame)], { type: 'image/jpeg' }), 'frame.jpg');
    form.append('timestamps', JSON.stringify(a.liveness.frames.map((_, i) => i * 150)));
    const uploaded = await call(`${capture}/liveness`, { method: 'POST', headers: auth, body: form });
    must('liveness upload', uploaded);
    liveness = uploaded;
  }
  step('selfie');
  const selfieSent = Date.now();
  const selfie = await call(`${capture}/selfie`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'image/jpeg' },
    body: new Uint8Array(a.selfie.image),
  });
  must('selfie upload', selfie);

  step('submit');
  const submitSent = Date.now();
  const submitT0 = performance.now();
  const submit = await call(`${capture}/submit`, { method: 'POST', headers: auth });
  must('submit', submit, 202);
  step('poll');
  let polls = 0;
  let decidedMs = NaN;
  for (const until = Date.now() + 120_000; ;) {
    const status = await call<CaptureStatus>(capture, { method: 'GET' });
    polls += 1;
    if (status.body.decision === 'done') {
      decidedMs = performance.now() - submitT0;
      break;
    }
    if (Date.now() > until) throw new Error(`session ${id} not decided 120 s after submit`);
    await sleep(pollMs);
  }
  step('report');
  const report = await call<Report>(`${base}/v1/sessions/${id}/report`, {
    method: 'GET',
    headers: { 'x-api-key': key },
  });
  must('report', report);
  step('result');
  const result = await call<Result>(`${base}/v1/sessions/${id}/result`, {
    method: 'GET',
    headers: { 'x-api-key': key },
  });
  must('result', result);
  step('end');
  const decidedAt = Date.parse(report.body.decided_at);
  const checks = Object.fromEntries(
    Object.entries(report.body.checks).map(([name, c]) => [name, { verdict: c.verdict, duration_ms: c.duration_ms }]),
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
    ...(pacedSteps === undefined ? {} : { paced_steps: pacedSteps }),
    submit_ms: submit.ms,
    submit_to_decided_ms: decidedMs,
    submit_to_decided_at_ms: decidedAt - submitSent,
    selfie_to_decided_at_ms: decidedAt - selfieSent,
    decided_at: decidedAt,
    status: result.body.status,
    failure_reason: result.body.failure_reason ?? null,
    checks,
    polls,
    document_readable: document.body.readable === true,
  };
}
