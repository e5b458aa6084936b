import { Session, SessionUpdate } from '../session/session';
import { SessionStatus } from '../session-status';

/**
 * Transitions made by the service itself (applicant progress, expiry, a decision). Of any number
 * of racing writers exactly one moves the session on, however the store interleaves them.
 */
export interface SessionTransitions {
  /** The session as written, or null when another writer moved it on first (or it is gone). */
  transitionBySystem(
    id: string,
    from: SessionStatus[],
    update: SessionUpdate,
    guard?: TransitionGuard,
  ): Promise<Session | null>;
}

export interface TransitionGuard {
  /** Expiry: lose to a submit, even one that lands between reading the deadline and the write. */
  unlessDecisionRequested?: boolean;
}

/** The applicant submitted the capture of an open session: its decision is owed (not a transition). */
export interface DecisionRequests {
  /** False when the session was no longer open (it expired or was cancelled first). */
  requestDecision(id: string, now: Date): Promise<boolean>;
}

/** Finishes transitions whose writer died between claiming them and writing the session. */
export interface ClaimRecovery {
  /** How many claims made in [from, to) were written through. */
  rollForwardClaimedBetween(from: Date, to: Date): Promise<number>;
}
