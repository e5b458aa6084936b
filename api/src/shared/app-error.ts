/** The contract's error codes and the HTTP status each one answers with. */
export const errorStatus = {
  UNAUTHORIZED: 401,
  INVALID_KEY_FORMAT: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * The one error type of the service. `catastrophic` marks errors after which the process state is
 * suspect (the error middleware logs them loudly); everything a client can cause is not.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly catastrophic = false,
  ) {
    super(message);
    this.status = errorStatus[code];
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
