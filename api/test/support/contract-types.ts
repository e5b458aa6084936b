/**
 * The API's answers as its OpenAPI document defines them (the same generated types the hosted
 * page uses), for tests that read a response body field by field.
 */
import type { components } from '../../../hosted/web/generated/openapi-types';

type Schemas = components['schemas'];

export type CreateSessionResponse = Schemas['CreateSessionResponse'];
export type SessionStatus = Schemas['SessionStatus'];
export type SessionResult = Schemas['SessionResult'];
export type SessionAttempts = Schemas['SessionAttempts'];
export type EvidenceReport = Schemas['EvidenceReport'];
export type RedactSessionResponse = Schemas['RedactSessionResponse'];
export type ErrorBody = Schemas['Error'];
