import { Connection, Model } from 'mongoose';
import { SessionAttemptArchive } from '../domain/ports/session-attempts';
import { PiiVault } from './pii-vault';
import { attemptId, SessionAttemptDocument, sessionAttemptModel } from './session-attempt.model';
import { SessionDocument } from './session.model';

const DUPLICATE_KEY = 11000;

/** The decided attempts a retry left behind (see session-attempt.model.ts). System-side: callers scope by the session first. */
export class SessionAttemptRepository implements SessionAttemptArchive {
  readonly model: Model<SessionAttemptDocument>;

  constructor(
    connection: Connection,
    private readonly vault: PiiVault,
  ) {
    this.model = sessionAttemptModel(connection);
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  /** Stores the session's current (decided) attempt; idempotent, so a retry that died after it can run again. */
  async archive(session: SessionDocument, at: Date): Promise<void> {
    const attempt = session.attempt ?? 1;
    try {
      await this.model.create({
        _id: attemptId(session._id, attempt),
        session_id: session._id,
        attempt,
        account_id: session.account_id,
        environment: session.environment,
        status: session.status,
        failure_reason: session.failure_reason,
        // Sealed bound to the session, as on the session document, so the outbox opens either alike.
        result_body:
          session.result_body === null
            ? null
            : await this.vault.seal(`${session._id}|result_body`, session.result_body),
        decided_at: session.decided_at,
        webhook_url: session.webhook_url,
        webhook_state: session.webhook_state,
        webhook_delivery_id: session.webhook_delivery_id,
        webhook_redeliveries: session.webhook_redeliveries ?? 0,
        archived_at: at,
      });
    } catch (error) {
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
    }
  }

  async find(sessionId: string, attempt: number): Promise<SessionAttemptDocument | null> {
    const doc = await this.model.findById(attemptId(sessionId, attempt)).lean<SessionAttemptDocument>().exec();
    return doc ? this.open(doc) : null;
  }

  async listForSession(sessionId: string): Promise<SessionAttemptDocument[]> {
    const docs = await this.model
      .find({ session_id: sessionId })
      .sort({ attempt: 1 })
      .lean<SessionAttemptDocument[]>()
      .exec();
    return Promise.all(docs.map((doc) => this.open(doc)));
  }

  /** Redaction: each archived attempt's result is replaced by its redacted form (given in plaintext, stored sealed). */
  async replaceResult(sessionId: string, attempt: number, resultBody: string): Promise<void> {
    const sealed = await this.vault.seal(`${sessionId}|result_body`, resultBody);
    await this.model.updateOne({ _id: attemptId(sessionId, attempt) }, { $set: { result_body: sealed } }).exec();
  }

  private open(doc: SessionAttemptDocument): Promise<SessionAttemptDocument> {
    return this.vault.openFields(doc.session_id, doc, ['result_body']);
  }
}
