import { Checks, FailureReason, Person } from '../session-status';
import { Environment } from '../environment';

export interface ResultFields {
  session_id: string;
  status: 'VERIFIED' | 'FAILED';
  environment: Environment;
  person: Person | null;
  checks: Checks;
  confidence: number;
  verified_until: Date | null;
  failure_reason: FailureReason | null;
  credential_token: string | null;
  /** 1-based: a retry of a FAILED session decides again under the next number. */
  attempt: number;
}

/**
 * Serializes the result resource once, at decision time. The stored string is what
 * GET /result returns and what the webhook signs and sends, so the two can never disagree, and the
 * client's metadata is spliced in as the exact text it sent.
 */
export function serializeResult(fields: ResultFields, metadataJson: string | null): string {
  const head = JSON.stringify({
    session_id: fields.session_id,
    status: fields.status,
    environment: fields.environment,
    person: fields.person,
    checks: fields.checks,
    confidence: fields.confidence,
    verified_until: fields.verified_until ? fields.verified_until.toISOString() : null,
    failure_reason: fields.failure_reason,
    credential_token: fields.credential_token,
    attempt: fields.attempt,
  });
  return `${head.slice(0, -1)},"metadata":${metadataJson ?? '{}'}}`;
}
