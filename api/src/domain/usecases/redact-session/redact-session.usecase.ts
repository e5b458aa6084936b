import { AppError } from '../../../shared/app-error';
import { Clock } from '../../../shared/clock';
import { AuditActor, AuditLog } from '../../audit/audit-event';
import { SessionAttemptArchive } from '../../ports/session-attempts';
import { SessionRedaction } from '../../ports/session-redaction';
import { CaptureFingerprints } from '../../ports/capture-fingerprints';
import { KnownFaces } from '../../ports/known-faces';
import { redactReport, redactResult } from '../../results/result-resource';
import { Session } from '../../session/session';
import { OPEN_STATUSES } from '../../session-status';
import { billDecision, BillDecisionDeps } from '../bill-decision/bill-decision.usecase';
import { eraseCaptures, EndCaptureDeps } from '../capture/end-capture';

export interface RedactDeps {
  sessions: SessionRedaction;
  attempts: Pick<SessionAttemptArchive, 'listForSession' | 'replaceResult'>;
  capture: Pick<EndCaptureDeps, 'states' | 'blobs'>;
  audit: AuditLog;
  clock: Clock;
  billing: BillDecisionDeps;
  /** The session's verified face (known_face) goes with its personal data. */
  knownFaces: Pick<KnownFaces, 'forget'>;
  fingerprints: Pick<CaptureFingerprints, 'forget'>;
}

export interface RedactWho {
  actor: AuditActor;
  requestId: string | null;
  /** For an integrator's request: cancels a session still open (the sweep only meets ended ones). */
  cancelOpen?: (id: string) => Promise<void>;
}

const MAX_ROUNDS = 5;

/**
 * Erases a session's personal data: the expected fields, the person in the result (and in every
 * archived attempt's result), the credential, the report's document details and every captured
 * image. Status, checks, confidence, failure_reason, verified_until and metadata stay. A session
 * still open is cancelled first. Idempotent; a retry racing it is caught by reading again and
 * redacting the attempt it started. The ledger entry owed for the decision is written first, as
 * it needs the document's country. Announced before its first write and settled after its audit
 * entry, so a redaction cut short is finished by the retention sweep rather than left half done.
 */
export async function redactSession(
  deps: RedactDeps,
  read: (id: string) => Promise<Session>,
  id: string,
  who: RedactWho,
) {
  let session = await read(id);
  const mark = await deps.sessions.redactionStarted(id, session.attempt ?? 1);
  for (let round = 0; ; round += 1) {
    if (round >= MAX_ROUNDS) throw AppError.conflict('The session keeps changing; try the redaction again.');
    if (OPEN_STATUSES.includes(session.status)) {
      if (!who.cancelOpen)
        throw AppError.conflict(`The session is ${session.status}; only an ended session is redacted.`);
      await who.cancelOpen(id).catch((error: unknown) => {
        if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
      });
      session = await read(id);
      continue;
    }
    if (session.ledger_pending) await billDecision(deps.billing, session);
    const now = session.redacted_at ? new Date(session.redacted_at) : deps.clock.now();
    const written = await deps.sessions.redact(id, session.status, session.attempt ?? 1, {
      expected_name: null,
      expected_dob: null,
      expected_address: null,
      credential_token: null,
      result_body: session.result_body ? redactResult(session.result_body, session.metadata_json, now) : null,
      report_json: session.report_json ? redactReport(session.report_json, now) : null,
      redacted_at: now,
      updated_at: session.redacted_at ? session.updated_at : deps.clock.now(),
    });
    const after = await read(id);
    if (
      written &&
      after.status === session.status &&
      (after.attempt ?? 1) === (session.attempt ?? 1) &&
      after.redacted_at
    ) {
      session = after;
      break;
    }
    session = after;
  }
  const lastAttempt = session.attempt ?? 1;
  for (const archived of await deps.attempts.listForSession(id)) {
    if (archived.result_body && !(JSON.parse(archived.result_body) as { redacted_at?: string | null }).redacted_at) {
      await deps.attempts.replaceResult(
        id,
        archived.attempt,
        redactResult(archived.result_body, session.metadata_json, new Date(session.redacted_at as Date)),
      );
    }
  }
  await deps.sessions.scrubClaims(id, lastAttempt);
  await eraseCaptures({ ...deps.capture, clock: deps.clock }, id, lastAttempt);
  await deps.knownFaces.forget(session.account_id, id);
  await deps.fingerprints.forget(session.account_id, id);
  await deps.audit.record({
    action: who.actor.type === 'system' ? 'retention.redact' : 'session.redact',
    actor: who.actor,
    at: deps.clock.now(),
    session_id: id,
    account_id: session.account_id,
    request_id: who.requestId,
    detail: null,
  });
  await deps.sessions.redactionFinished(mark);
  return {
    session_id: id,
    status: session.status,
    redacted_at: new Date(session.redacted_at as Date).toISOString(),
  };
}
