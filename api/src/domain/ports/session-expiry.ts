/**
 * Expiring open sessions. Each expiry is a claimed transition from PENDING or IN_PROGRESS only,
 * so it never overrides a decision, and a delayed job racing the sweep expires a session once.
 */
export interface SessionExpiry {
  /** When the open, unsubmitted session is due; null when it is not open or its decision is pending. */
  openDeadline(id: string): Promise<Date | null>;
  /** True when this call moved the session to EXPIRED. */
  expire(id: string, now: Date): Promise<boolean>;
  /** Expires the open, unsubmitted sessions past their deadline, a bounded page; their ids. */
  expireAllDue(now: Date): Promise<string[]>;
}
