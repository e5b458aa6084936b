import { Session, SessionUpdate } from '../session/session';
import { SessionStatus } from '../session-status';

/**
 * Transitions made by the service itself (applicant progress, expiry, a decision). Of any number
 * of racing writers exactly one moves the session on, however the store interleaves them.
 */
export interface SessionTransitions {
  /** The session as written, or null when another writer moved it on first (or it is gone). */
  transitionBySystem(id: string, from: SessionStatus[], update: SessionUpdate): Promise<Session | null>;
}

/** The applicant submitted the capture of an open session: its decision is owed (not a transition). */
export interface DecisionRequests {
  requestDecision(id: string, now: Date): Promise<void>;
}

/** Finishes transitions whose writer died between claiming them and writing the session. */
export interface ClaimRecovery {
  /** How many claims made in [from, to) were written through. */
  rollForwardClaimedBetween(from: Date, to: Date): Promise<number>;
}
