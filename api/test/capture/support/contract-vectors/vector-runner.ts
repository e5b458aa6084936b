import { randomBytes } from 'node:crypto';
import { match, matchHeaders, Variables } from './vector-matcher';
import { buildRequest } from './vector-requests';
import { ExpectedResponse, Step } from './vector-types';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function send(step: Step, vars: Variables): Promise<Answer> {
  // Each multipart request gets its own boundary, as a client would choose one.
  vars.boundary = `vector-${randomBytes(12).toString('hex')}`;
  const { url, init } = buildRequest(step.request, vars);
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = { not_json: text.slice(0, 200) };
    }
  }
  return { status: res.status, headers: res.headers, body };
}

/** The mismatches between an answer and its expectation; empty when it holds. */
export function check(expected: ExpectedResponse, answer: Answer, vars: Variables): string[] {
  if (answer.status !== expected.status)
    return [`status: expected ${expected.status}, got ${answer.status} with ${JSON.stringify(answer.body)}`];
  // The body first: headers may refer to what it captured (X-Request-Id and request_id).
  const problems = match(expected.body, answer.body, vars);
  return [...problems, ...matchHeaders(expected.headers ?? {}, answer.headers, vars)];
}

function fail(step: Step, problems: string[], answer: Answer): never {
  throw new Error(
    `step "${step.name}" (${step.request.method} ${step.request.path}) drifted from its vector:\n  ${problems.join('\n  ')}\n` +
      `the answer: ${answer.status} ${JSON.stringify(answer.body)}`,
  );
}

/** Runs one step (repeated or polled as it says), failing on the first answer that drifts. */
async function runStep(step: Step, vars: Variables): Promise<Answer> {
  if (step.poll) {
    const { until, interval_ms, timeout_ms } = step.poll;
    const deadline = Date.now() + timeout_ms;
    for (;;) {
      const answer = await send(step, vars);
      const done = (answer.body as Record<string, unknown> | null)?.[until.field] === until.equals;
      const problems = check(done ? (step.final_response ?? step.response) : step.response, answer, vars);
      if (problems.length > 0) fail(step, problems, answer);
      if (done) return answer;
      if (Date.now() > deadline)
        fail(step, [`${until.field} not ${JSON.stringify(until.equals)} after ${timeout_ms} ms`], answer);
      await new Promise((r) => setTimeout(r, interval_ms));
    }
  }
  let answer: Answer | null = null;
  for (let i = 0; i < (step.repeat ?? 1); i++) {
    answer = await send(step, vars);
    const problems = check(step.response, answer, vars);
    if (problems.length > 0) fail(step, problems, answer);
  }
  return answer as Answer;
}

/** Runs a vector's steps in order with fresh variables on top of the runner's; answers the last answer. */
export async function runSteps(steps: Step[], runnerVars: Variables): Promise<{ answer: Answer; vars: Variables }> {
  const vars: Variables = { ...runnerVars };
  let answer: Answer | null = null;
  for (const step of steps) answer = await runStep(step, vars);
  if (!answer) throw new Error('a vector with no steps');
  return { answer, vars };
}
