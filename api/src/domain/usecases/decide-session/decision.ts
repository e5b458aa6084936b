import { Checks, FailureReason, Person } from '../../session-status';

/** What the checks concluded for one applicant, before it is written. */
export interface Decision {
  status: 'VERIFIED' | 'FAILED';
  failure_reason: FailureReason | null;
  checks: Checks;
  confidence: number;
  person: Person | null;
  /** The document's own expiry date (YYYY-MM-DD), which caps verified_until. */
  document_expiry: string | null;
  /** The evidence report's `checks` and `document` (no personal data); null when no check ran (simulation). */
  report?: { checks: Record<string, unknown>; document: Record<string, unknown> | null } | null;
}

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** contract.md: the earlier of the document's expiry and the decision time plus 365 days. */
export function verifiedUntil(decidedAt: Date, documentExpiry: string | null): Date {
  const yearLater = new Date(decidedAt.getTime() + YEAR_MS);
  if (!documentExpiry) return yearLater;
  const expiry = new Date(`${documentExpiry}T00:00:00.000Z`);
  return expiry < yearLater ? expiry : yearLater;
}
