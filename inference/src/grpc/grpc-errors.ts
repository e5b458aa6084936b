/** Maps failures to gRPC status codes with a detail string; anything unexpected is INTERNAL. */
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ModelRepositoryError } from '../repository/model-repository-error';
import { isInferenceError, type InferenceErrorCode } from '../runtime/inference-error';

const codes: Record<InferenceErrorCode, status> = {
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  NOT_FOUND: status.NOT_FOUND,
  RESOURCE_EXHAUSTED: status.RESOURCE_EXHAUSTED,
  DEADLINE_EXCEEDED: status.DEADLINE_EXCEEDED,
  UNAVAILABLE: status.UNAVAILABLE,
  INTERNAL: status.INTERNAL,
};

export function toServiceError(error: unknown): Partial<ServiceError> {
  if (isInferenceError(error)) return { code: codes[error.code], details: error.message, metadata: new Metadata() };
  if (error instanceof ModelRepositoryError)
    return { code: status.UNAVAILABLE, details: error.message, metadata: new Metadata() };
  // The caller sees only a generic detail; ops must see the cause, or an INTERNAL cannot be traced.
  // Errors here carry code paths and library messages, never request payloads.
  console.error(
    `[inference] internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return {
    code: status.INTERNAL,
    details: 'internal error in the inference service',
    metadata: new Metadata(),
  };
}
