import { Connection } from 'mongoose';
import { OPEN_STATUSES } from '../domain/session-status';
import { InFlightIndex } from './in-flight-index.repository';
import { SessionDocument } from './session.model';

type SessionView = Pick<SessionDocument, '_id' | 'status' | 'attempt' | 'expires_at' | 'decision_requested_at'>;
const VIEW = { status: 1, attempt: 1, expires_at: 1, decision_requested_at: 1 };

/**
 * Open sessions (PENDING, IN_PROGRESS) with their deadlines: what the expiry and decision sweeps
 * look at. An entry is written before the session is created or reopened and removed once the
 * session leaves the open statuses; the sweeps re-check each session by _id before acting, and
 * drop entries whose session is no longer open (a crash between the close and the removal).
 */
export class OpenSessionIndex {
  readonly index: InFlightIndex;

  constructor(connection: Connection) {
    this.index = new InFlightIndex(connection, 'open');
  }

  private read(id: string): Promise<SessionView | null> {
    return this.index.session<SessionView>(id, VIEW);
  }

  track(id: string, attempt: number, dueAt: Date, now?: Date): Promise<void> {
    return this.index.track(id, { attempt, due_at: dueAt }, now);
  }

  /** A session being created: its first entry (see InFlightIndex.start). */
  opened(id: string, attempt: number, dueAt: Date, now?: Date): Promise<void> {
    return this.index.start(id, { attempt, due_at: dueAt }, now);
  }

  /** The applicant submitted: the decision sweep looks at this session until it is decided. */
  markDecisionRequested(id: string, at: Date): Promise<void> {
    return this.index.annotate(id, { decision_requested_at: at });
  }

  closed(id: string, attempt: number): Promise<void> {
    return this.index.settle(id, attempt);
  }

  /** Open, unsubmitted sessions whose deadline has passed, as the session documents say (a bounded page). */
  async dueForExpiry(now: Date, limit: number): Promise<string[]> {
    const due: string[] = [];
    for (const entry of await this.index.list({ due_at: { $lte: now } }, limit, { due_at: 1 })) {
      const session = await this.read(entry._id);
      if (!session || !OPEN_STATUSES.includes(session.status)) {
        await this.index.drop(entry);
        continue;
      }
      // The deadline moved on since the entry was written: the entry follows the session.
      if (new Date(session.expires_at).getTime() > now.getTime()) {
        await this.index.annotate(entry._id, { due_at: session.expires_at });
        continue;
      }
      if (!session.decision_requested_at) due.push(session._id);
    }
    return due;
  }

  /** Submitted sessions still open (the decision sweep re-enqueues their decisions). */
  async awaitingDecision(limit: number): Promise<Array<Pick<SessionDocument, '_id' | 'attempt'>>> {
    const owed: Array<Pick<SessionDocument, '_id' | 'attempt'>> = [];
    for (const entry of await this.index.list({ decision_requested_at: { $ne: null } }, limit, {
      decision_requested_at: 1,
    })) {
      const session = await this.read(entry._id);
      if (!session || !OPEN_STATUSES.includes(session.status)) await this.index.drop(entry);
      else if (session.decision_requested_at) owed.push({ _id: session._id, attempt: session.attempt ?? 1 });
    }
    return owed;
  }
}
