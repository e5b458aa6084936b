/**
 * Tells every API process that an account or one of its keys changed, so none keeps serving what
 * it cached before the change. Called after the change is stored, never before: a process that
 * reads the store between the two must not cache the old record under the new generation.
 */
export interface AccountChanges {
  /** False where no announcement can ever be made (no Redis configured): changes are refused before they are written. */
  readonly canAnnounce: boolean;
  announce(): Promise<void>;
}

const NO_REDIS =
  'set REDIS_URL (and REDIS_PREFIX): API processes cache keys and accounts until a change to them is announced';

/** For processes with no way to announce: creating accounts and keys works, changing them is refused. */
export const noAccountChanges: AccountChanges = {
  canAnnounce: false,
  announce: () => Promise.reject(new Error(NO_REDIS)),
};
