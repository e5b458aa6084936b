/**
 * What the domain needs from the job queue. The BullMQ implementation lives with the other
 * adapters; unit tests stub this interface.
 */
export interface DecisionQueue {
  /** Throws a 503 AppError when a transition could not be followed by an enqueue right now. */
  assertWritable(): Promise<void>;
  /** De-duplicated by session, attempt and status: enqueueing the same decision twice yields one job. */
  enqueueWebhook(sessionId: string, status: 'VERIFIED' | 'FAILED', sessionAttempt?: number): Promise<void>;
  /** One timer per attempt: a retry restarts the expiry window. */
  scheduleExpiry(sessionId: string, at: Date, sessionAttempt?: number): Promise<void>;
  /** De-duplicated per session attempt. */
  enqueueDecision(sessionId: string, attempt: number): Promise<void>;
}
