/**
 * Store errors that say "not now" rather than "never": the store is busy, changing primary, or
 * out of reach. A retry a moment later may succeed, so they are retried where that is safe and
 * otherwise answered 503 with Retry-After, never 500.
 */

/** MongoDB server codes of a primary stepping down, a node shutting down, or the network between. */
const TRANSIENT_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** The driver's (and mongoose's) names for a connection lost, refused, or timed out. */
const TRANSIENT_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
  'MongoWaitQueueTimeoutError',
  // The process is shutting down with requests still in flight: another replica can answer them.
  'MongoClientClosedError',
  'MongoTopologyClosedError',
]);

/** Labels the driver puts on errors that a retry of the same operation may get past. */
const TRANSIENT_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'ResetPool'];

/**
 * FerretDB over SQLite passes SQLite's lock errors on as internal errors: a writer that waited its
 * busy timeout out ("database is locked (5) (SQLITE_BUSY)"). Mongoose's own wait for a connection
 * ("buffering timed out") is the same situation seen from the client.
 */
const TRANSIENT_MESSAGE = /SQLITE_BUSY|SQLITE_LOCKED|database is locked|database table is locked|buffering timed out/i;

interface DriverErrorShape {
  name?: string;
  code?: unknown;
  message?: string;
  errorLabels?: string[];
  hasErrorLabel?: (label: string) => boolean;
  cause?: unknown;
}

export function isTransientStoreError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as DriverErrorShape;
  if (e.name && TRANSIENT_NAMES.has(e.name)) return true;
  if (typeof e.code === 'number' && TRANSIENT_CODES.has(e.code) && (e.name ?? '').startsWith('Mongo')) return true;
  const labels = e.errorLabels ?? [];
  if (TRANSIENT_LABELS.some((label) => labels.includes(label) || e.hasErrorLabel?.(label) === true)) return true;
  if ((e.name ?? '').startsWith('Mongo') && TRANSIENT_MESSAGE.test(e.message ?? '')) return true;
  return isTransientStoreError(e.cause, depth + 1);
}
