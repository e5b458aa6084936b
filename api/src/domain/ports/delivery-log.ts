import { DeliveryAttemptRecord, NewDeliveryAttempt } from '../webhooks/delivery-attempt';

/** Every webhook attempt, so an integrator can see each try and its answer. */
export interface DeliveryLog {
  /** Resolves once the attempt is stored. */
  record(attempt: NewDeliveryAttempt): Promise<void>;
}

export interface DeliveryLogReader {
  /** Oldest first. Callers pass a session id they have already checked the tenant owns. */
  listForSession(sessionId: string): Promise<DeliveryAttemptRecord[]>;
}
