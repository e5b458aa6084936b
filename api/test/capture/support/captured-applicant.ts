import type { EvidenceReport, SessionResult } from '../../support/api-bodies';
import { CaptureClient } from './capture-client';
import type { CaptureStack } from './capture-stack';
import { documentOf, livenessOf, selfieOf } from './applicant-files';

/** The challenge every session here is pinned to, the one the prerecorded sequences perform. */
export const PINNED = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'];

/** A sandbox session with the challenge pinned, its capture started by one device. */
export async function capture(stack: CaptureStack, body: Record<string, unknown>, apiKey?: string) {
  const id = await stack.session({ sandbox: { liveness_challenge: PINNED }, ...body }, apiKey);
  const client = new CaptureClient(stack.baseUrl, id);
  const started = await client.start();
  expect(started.status).toBe(200);
  return { id, client, started };
}

/** The session's result as its account reads it. */
export async function resultOf(stack: CaptureStack, id: string, apiKey?: string): Promise<SessionResult> {
  return (await stack.api('GET', `/v1/sessions/${id}/result`, apiKey)).body as SessionResult;
}

/** The session's evidence report as its account reads it. */
export async function reportOf(stack: CaptureStack, id: string, apiKey?: string): Promise<EvidenceReport> {
  return (await stack.api('GET', `/v1/sessions/${id}/report`, apiKey)).body as EvidenceReport;
}

export interface DecideOptions {
  /** Whose selfie is taken (default: the document holder). */
  selfieOf?: string;
  expectedName?: string;
  /** Which sequence kind the liveness frames are (default: one that performs the challenge). */
  liveness?: string;
  /** Who performs the challenge (default: whoever takes the selfie). */
  performer?: string;
  /** The account's key the session is created and read with (default: the stack's sandbox key). */
  apiKey?: string;
  /** Which of the identity's passports (each names another synthetic person; default the first). */
  document?: number;
}

/** One applicant with a clean passport of `identity` through every capture to the decision, answering its result. */
export async function decideApplicant(
  stack: CaptureStack,
  identity: string,
  options: DecideOptions = {},
): Promise<SessionResult> {
  const passport = documentOf('TD3', 'clean', identity, options.document);
  const { id, client } = await capture(
    stack,
    { expected_name: options.expectedName ?? passport.label.expected.fields.name },
    options.apiKey,
  );
  await client.document('front', 'passport', passport.image);
  await client.liveness(
    livenessOf(options.performer ?? options.selfieOf ?? identity, options.liveness ?? 'synthetic-performs-challenge')
      .frames,
  );
  await client.selfie(selfieOf(options.selfieOf ?? identity));
  await client.submit();
  await client.decided();
  return resultOf(stack, id, options.apiKey);
}

/** The copy of the session's webhook the receiver got, waiting up to `ms` for it. */
export async function webhookCopyOf(stack: CaptureStack, id: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (!stack.stack.receiver.copies.some((c) => c.sessionId === id) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 100));
  return stack.stack.receiver.copies.find((c) => c.sessionId === id);
}
