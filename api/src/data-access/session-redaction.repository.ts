import { RedactionMark, SessionRedaction } from '../domain/ports/session-redaction';
import { SessionUpdate } from '../domain/session/session';
import { OPEN_STATUSES, SessionStatus } from '../domain/session-status';
import { isSealed } from './pii-vault';
import { attemptIs, claimId, SessionStore } from './session-store';
import { PERSONAL_SESSION_FIELDS, SessionDocument } from './session.model';

/** Erasing and sealing personal data where the session store keeps it (the session and its claims). */
export class SessionRedactionRepository implements SessionRedaction {
  constructor(private readonly store: SessionStore) {}

  redactionStarted(id: string, attempt: number): Promise<RedactionMark> {
    return this.store.inFlight.redactions.started(id, attempt);
  }

  redactionFinished(mark: RedactionMark): Promise<void> {
    return this.store.inFlight.redactions.finished(mark);
  }

  /**
   * Writes a redaction onto a decided or expired session, only while it still has the status and
   * attempt the caller read (a retry racing it is caught by the caller reading again). Not a
   * transition: the status stays, so there is no claim to take; writing it twice is harmless.
   */
  async redact(id: string, status: SessionStatus, attempt: number, update: SessionUpdate): Promise<boolean> {
    const sealed = await this.store.seal(id, update);
    const result = await this.store.model
      .updateOne({ _id: id, status, ...attemptIs(attempt) }, { $set: sealed })
      .exec();
    return result.matchedCount === 1;
  }

  /**
   * Redaction: the claims that decided the session's attempts carry the sealed result in their
   * update; it goes too. Those claims can never be rolled forward again (the session has left
   * the status they claim), so only the guard they provide remains, which is all that is needed.
   */
  async scrubClaims(id: string, lastAttempt: number): Promise<void> {
    const ids: string[] = [];
    for (let attempt = 1; attempt <= lastAttempt; attempt += 1)
      for (const from of OPEN_STATUSES) ids.push(claimId(id, attempt, from));
    await this.store.claims
      .updateMany({ _id: { $in: ids } }, { $unset: { 'update.result_body': 1, 'update.report_json': 1 } })
      .exec();
  }

  /**
   * Upgrade path: seals personal fields stored before encryption at rest existed (no seal
   * prefix). Each write is conditional on the plaintext still being there, so it can run beside
   * live traffic and be run again.
   */
  async sealLegacy(): Promise<number> {
    const { model, vault } = this.store;
    let sealed = 0;
    const projection = Object.fromEntries(PERSONAL_SESSION_FIELDS.map((f) => [f, 1]));
    for await (const doc of model.find({}, projection).lean<SessionDocument>().cursor()) {
      for (const field of PERSONAL_SESSION_FIELDS) {
        const value = doc[field];
        if (typeof value !== 'string' || isSealed(value)) continue;
        const result = await model
          .updateOne(
            { _id: doc._id, [field]: value },
            { $set: { [field]: await vault.seal(`${doc._id}|${field}`, value) } },
          )
          .exec();
        sealed += result.modifiedCount;
      }
    }
    return sealed;
  }
}
