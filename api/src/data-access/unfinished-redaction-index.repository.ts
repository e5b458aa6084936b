import { Connection } from 'mongoose';
import { RedactionMark } from '../domain/ports/session-redaction';
import { OPEN_STATUSES } from '../domain/session-status';
import { ENTRY_GRACE_MS, InFlightIndex } from './in-flight-index.repository';
import { SessionDocument } from './session.model';

/**
 * Redactions begun and not yet finished. A redaction erases the session's fields first and then,
 * one store at a time, its archived attempts, claims, captures, known face and fingerprints,
 * ending with its audit entry; once the session shows `redacted_at`, no retention query finds it
 * again. A process that dies in between would leave the rest of its personal data for good, so the
 * redaction is announced here before its first write and settled after its last, and the
 * retention sweep finishes what an entry past its grace still owes.
 */
export class UnfinishedRedactionIndex {
  readonly index: InFlightIndex;

  constructor(connection: Connection) {
    this.index = new InFlightIndex(connection, 'redactions');
  }

  async started(id: string, attempt: number, now = new Date()): Promise<RedactionMark> {
    await this.index.track(id, { attempt }, now);
    return { sessionId: id, since: now };
  }

  /** Settled unless another redaction of the session announced itself since (it settles its own). */
  finished(mark: RedactionMark): Promise<void> {
    return this.index.drop({ _id: mark.sessionId, since: mark.since });
  }

  /**
   * Sessions whose redaction began more than the grace ago (its process is gone) and that are
   * ended: finishing erases what the first attempt left. A session still open never had its
   * fields erased (it is cancelled before that), and one gone has nothing left: their entries go.
   */
  async unfinished(limit: number, now: Date): Promise<string[]> {
    const ids: string[] = [];
    const begunBefore = new Date(now.getTime() - ENTRY_GRACE_MS);
    for (const entry of await this.index.list({ since: { $lte: begunBefore } }, limit)) {
      const session = await this.index.session<Pick<SessionDocument, '_id' | 'status'>>(entry._id, { status: 1 });
      if (session && !OPEN_STATUSES.includes(session.status)) ids.push(session._id);
      else await this.index.drop(entry);
    }
    return ids;
  }
}
