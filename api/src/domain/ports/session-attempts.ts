import { Session, SessionAttempt } from '../session/session';

/** The decided attempts a retry left behind. Callers scope by the session first. */
export interface SessionAttemptArchive {
  /** Keeps the session's current (decided) attempt; idempotent. */
  archive(session: Session, at: Date): Promise<void>;
  /** Oldest first, results opened. */
  listForSession(sessionId: string): Promise<SessionAttempt[]>;
  /** Redaction: the attempt's result replaced by its redacted form. */
  replaceResult(sessionId: string, attempt: number, resultBody: string): Promise<void>;
}
