import { Connection, Schema } from 'mongoose';

/**
 * One document per state a session has left: `_id` is `${session_id}:${from}` on attempt 1 and
 * `${session_id}:${attempt}:${from}` after a retry. Within one attempt a session leaves each state
 * at most once (the only cycle, FAILED → PENDING, starts a new attempt), so the unique _id makes
 * "who moves it on" a single atomic insert. The documents double as the session's transition log
 * (a submit's decision request holds the same id only while it writes, and leaves no document).
 */
export interface TransitionClaimDocument {
  _id: string;
  session_id: string;
  /** The attempt the session was at when claimed (absent on claims made before retries: 1). */
  attempt?: number;
  from: string;
  to: string;
  /** The $set the winner applies; anyone may re-apply it if the winner died before doing so. */
  update: Record<string, unknown>;
  claimed_at: Date;
  /**
   * `decision-request`: the applicant's submit, which is no transition (the status stays) but must
   * not interleave with one; it holds the claim only while it writes and is then deleted.
   */
  kind?: 'transition' | 'decision-request';
  /** An expiry: void, and released, if the session's decision has been requested. */
  unless_decision_requested?: boolean;
}

const claimSchema = new Schema<TransitionClaimDocument>(
  {
    _id: { type: String, required: true },
    session_id: { type: String, required: true },
    attempt: { type: Number, default: 1 },
    from: { type: String, required: true },
    to: { type: String, required: true },
    update: { type: Schema.Types.Mixed, required: true },
    claimed_at: { type: Date, required: true },
    kind: { type: String },
    unless_decision_requested: { type: Boolean },
  },
  { versionKey: false, minimize: false },
);
// Stale-claim recovery: "claims older than N seconds" (rolled forward by the sweeper).
claimSchema.index({ claimed_at: 1 });

export const transitionClaimModel = (connection: Connection) =>
  connection.model<TransitionClaimDocument>('TransitionClaim', claimSchema, 'session_transitions');
