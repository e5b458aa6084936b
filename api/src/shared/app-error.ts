/**
 * The contract's error codes. What each means over HTTP is the error middleware's business
 * (entry-points/http/middleware/error-status.ts); the domain and data-access only name the code.
 */
export const ERROR_CODES = [
  'UNAUTHORIZED',
  'INVALID_KEY_FORMAT',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'VALIDATION_ERROR',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes that mean the service, not the caller, failed (a retry later may succeed). */
const SERVICE_FAULTS: ErrorCode[] = ['INTERNAL', 'SERVICE_UNAVAILABLE'];

export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * The one error type of the service. `catastrophic` marks errors after which the process state is
 * suspect (the error middleware logs them loudly); everything a client can cause is not.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly catastrophic = false,
  ) {
    super(message);
  }

  /** The caller caused it (a bad request, a missing key, a conflict), not the service. */
  get callerFault(): boolean {
    return !SERVICE_FAULTS.includes(this.code);
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `No ${what} with that id.`);
  }

  static forbidden(): AppError {
    return new AppError('FORBIDDEN', 'This API key has no access to that resource.');
  }

  static conflict(message: string): AppError {
    return new AppError('CONFLICT', message);
  }

  static unavailable(message: string): AppError {
    return new AppError('SERVICE_UNAVAILABLE', message);
  }
}
