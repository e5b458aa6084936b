import type { components } from '../../../hosted/web/generated/openapi-types';

/**
 * The response bodies the OpenAPI document promises, generated from it. `call` checks every response
 * against the document, so naming a body by its schema here is backed at run time, not a bare cast.
 */
export type Schemas = components['schemas'];
export type ApiError = Schemas['Error'];
export type CreatedSession = Schemas['CreateSessionResponse'];
export type SessionStatus = Schemas['SessionStatus'];
export type SessionResult = Schemas['SessionResult'];
export type RetriedSession = Schemas['RetrySessionResponse'];
export type CaptureStart = Schemas['CaptureStart'];
export type Readiness = Schemas['Readiness'];
export type DeliveryLog = Schemas['WebhookDeliveryLog'];
export type SessionAttempts = Schemas['SessionAttempts'];
export type EvidenceReport = Schemas['EvidenceReport'];
export type RedactSessionResponse = Schemas['RedactSessionResponse'];

/**
 * A body that is the success schema or the error schema, by the status the test checks beside it
 * (racing requests, a loop over outcomes): every field optional, so each read names its case.
 */
export type SuccessOrError<T> = Partial<T> & Partial<ApiError>;
