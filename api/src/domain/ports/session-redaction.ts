import { SessionUpdate } from '../session/session';
import { SessionStatus } from '../session-status';

/** Erasing a session's personal data where the session store keeps it. */
export interface SessionRedaction {
  /**
   * Writes the redaction onto a decided or expired session, only while it still has the status
   * and attempt the caller read; false when it no longer has (the caller reads again).
   */
  redact(id: string, status: SessionStatus, attempt: number, update: SessionUpdate): Promise<boolean>;
  /** The results the transitions of attempts 1..lastAttempt carried go too. */
  scrubClaims(id: string, lastAttempt: number): Promise<void>;
}
