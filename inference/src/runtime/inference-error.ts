/**
 * Failures callers can act on, named with the gRPC status they travel as. Raised in-process too,
 * so task code and tests see the same codes whether the runner is local or behind the service.
 */
export type InferenceErrorCode =
  'INVALID_ARGUMENT' | 'NOT_FOUND' | 'RESOURCE_EXHAUSTED' | 'DEADLINE_EXCEEDED' | 'UNAVAILABLE' | 'INTERNAL';

export class InferenceError extends Error {
  constructor(
    readonly code: InferenceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'InferenceError';
  }
}

export function isInferenceError(error: unknown): error is InferenceError {
  return error instanceof InferenceError;
}
