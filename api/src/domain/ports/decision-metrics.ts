/**
 * What deciding a session reports to operations. A port, so the use case stays free of
 * Prometheus and its tests can read what was reported. Labels are enums only: never ids or
 * personal data.
 */
export interface DecisionMetrics {
  /** `latencySeconds`: from the applicant's submit to the written decision. */
  decisionMade(status: string, failureReason: string | null, latencySeconds: number): void;
}
