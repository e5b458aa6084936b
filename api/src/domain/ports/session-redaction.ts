import { SessionUpdate } from '../session/session';
import { SessionStatus } from '../session-status';

/** A redaction announced before its first write; settled after its last. */
export interface RedactionMark {
  sessionId: string;
  since: Date;
}

/** Erasing a session's personal data where the session store keeps it. */
export interface SessionRedaction {
  /**
   * Announces a redaction of the session before anything is erased, so that one cut short (a
   * process gone between its writes) is found and finished by the retention sweep.
   */
  redactionStarted(id: string, attempt: number): Promise<RedactionMark>;
  /** Every part is erased and audited: the announcement goes. */
  redactionFinished(mark: RedactionMark): Promise<void>;
  /**
   * Writes the redaction onto a decided or expired session, only while it still has the status
   * and attempt the caller read; false when it no longer has (the caller reads again).
   */
  redact(id: string, status: SessionStatus, attempt: number, update: SessionUpdate): Promise<boolean>;
  /** The results the transitions of attempts 1..lastAttempt carried go too. */
  scrubClaims(id: string, lastAttempt: number): Promise<void>;
}
