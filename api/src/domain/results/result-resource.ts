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
  /** Set once the person's data was erased (absent until then, so a decided result keeps its bytes). */
  redacted_at?: Date | null;
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
    ...(fields.redacted_at ? { redacted_at: fields.redacted_at.toISOString() } : {}),
  });
  return `${head.slice(0, -1)},"metadata":${metadataJson ?? '{}'}}`;
}

/**
 * The redacted form of a stored result: status, checks, confidence and the rest as decided, the
 * person and the credential token gone, `redacted_at` added. The client's metadata is spliced back
 * as the exact text it sent (it is the integrator's reference; see api/README "Personal data").
 */
export function redactResult(resultBody: string, metadataJson: string | null, redactedAt: Date): string {
  const decided = JSON.parse(resultBody) as Record<string, unknown>;
  return serializeResult(
    {
      session_id: decided.session_id as string,
      status: decided.status as ResultFields['status'],
      environment: decided.environment as Environment,
      person: null,
      checks: decided.checks as Checks,
      confidence: decided.confidence as number,
      verified_until: decided.verified_until ? new Date(decided.verified_until as string) : null,
      failure_reason: decided.failure_reason as FailureReason | null,
      credential_token: null,
      attempt: (decided.attempt as number | undefined) ?? 1,
      redacted_at: redactedAt,
    },
    metadataJson,
  );
}

/** The evidence report without personal data: every score kept; the document's country and MRZ corrections, a listed person's name, and the chip's issuing state and signer, gone. */
export function redactReport(reportJson: string, redactedAt: Date): string {
  const report = JSON.parse(reportJson) as {
    checks?: Record<string, Record<string, unknown>>;
    document?: Record<string, unknown> | null;
  };
  const checks = Object.fromEntries(
    Object.entries(report.checks ?? {}).map(([name, check]) => [
      name,
      'match' in check
        ? { ...check, match: null }
        : 'evidence' in check && check.evidence
          ? { ...check, evidence: { ...check.evidence, issuing_state: null, document_signer: null } }
          : check,
    ]),
  );
  const document = report.document ? { ...report.document, country: null, corrections: [] } : null;
  return JSON.stringify({ ...report, checks, document, redacted_at: redactedAt.toISOString() });
}
