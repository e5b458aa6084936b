import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CAPTURE_TOKEN, eventStream, json, PUBLIC, publicErrors } from '../openapi/operation-parts';
import {
  captureParams,
  captureProgressResponse,
  captureStatusResponse,
  chipChallengeResponse,
  chipUploadRequest,
  chipUploadResponse,
  documentSideResponse,
  documentTypeQuery,
  livenessResponse,
  selfieResponse,
  startCaptureResponse,
  submitResponse,
} from '../schemas/capture.schemas';
import { z } from '../schemas/zod-openapi';
import { integrityUploadRequest, integrityUploadResponse } from '../schemas/capture-integrity.schemas';

/** The token is optional here: without it the call starts (or reads) as a new device. */
const OPTIONAL_TOKEN = [{}, ...CAPTURE_TOKEN];
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

const image = (description: string) => ({
  required: true,
  content: Object.fromEntries(
    IMAGE_TYPES.map((type) => [type, { schema: z.string().openapi({ format: 'binary', description }) }]),
  ),
});

const livenessForm = z.object({
  frame: z
    .array(z.string().openapi({ format: 'binary' }))
    .min(8)
    .max(60)
    .openapi({ description: '8 to 60 JPEG frames in capture order, each at most 1 MiB and 2 megapixels' }),
  timestamps: z.string().openapi({
    description: 'JSON array of milliseconds since the challenge started, one per frame, increasing',
  }),
});

/**
 * The capture API as the OpenAPI document declares it (capture.routes.ts serves it): no API key;
 * the session id is the capability, the capture token binds one device.
 */
export function registerCapturePaths(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'CaptureToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The capture_token from start',
  });
  const params = { params: captureParams };
  const uploadErrors = publicErrors(401, 404, 409, 413, 415, 422, 429, 503);

  registry.registerPath({
    operationId: 'startCapture',
    method: 'post',
    path: '/v1/capture/{session_id}/start',
    security: OPTIONAL_TOKEN,
    summary: 'Start (or resume, with the token) capture on this device; PENDING → IN_PROGRESS',
    request: params,
    responses: {
      200: json(startCaptureResponse, 'The token and the challenge'),
      ...publicErrors(401, 404, 409, 429, 503),
    },
  });
  for (const side of ['front', 'back'] as const) {
    registry.registerPath({
      operationId: side === 'front' ? 'uploadDocumentFront' : 'uploadDocumentBack',
      method: 'put',
      path: `/v1/capture/{session_id}/document/${side}`,
      security: CAPTURE_TOKEN,
      summary: `Upload the document's ${side} side; it is read at once`,
      request: {
        ...params,
        query: documentTypeQuery,
        body: image('The photo, at most 10 MiB and 40 megapixels'),
      },
      responses: { 200: json(documentSideResponse, 'The read'), ...uploadErrors },
    });
  }
  registry.registerPath({
    operationId: 'issueChipChallenge',
    method: 'post',
    path: '/v1/capture/{session_id}/chip/challenge',
    security: CAPTURE_TOKEN,
    summary: "Draw the passport chip's active-authentication challenge (8 bytes, single use, at most 5 minutes)",
    request: params,
    responses: { 200: json(chipChallengeResponse, 'The challenge'), ...publicErrors(401, 404, 409, 429) },
  });
  registry.registerPath({
    operationId: 'uploadDocumentChip',
    method: 'put',
    path: '/v1/capture/{session_id}/document/chip',
    security: CAPTURE_TOKEN,
    summary: "Upload the passport chip's files (verified at decision; the answer says only what was received)",
    request: {
      ...params,
      body: { required: true, content: { 'application/json': { schema: chipUploadRequest } } },
    },
    responses: { 200: json(chipUploadResponse, 'Well-formed, and what was received'), ...uploadErrors },
  });
  registry.registerPath({
    operationId: 'putCaptureIntegrity',
    method: 'put',
    path: '/v1/capture/{session_id}/integrity',
    security: CAPTURE_TOKEN,
    summary:
      "Record the capturing client's integrity signals (camera label, webdriver, renderer, constraint probe, frame timing)",
    description:
      'JSON, at most 4 KiB; unknown or out-of-range fields: 422 VALIDATION_ERROR naming each. Sent once the face camera is open; the last one sent before submit stands (5 at most). The decision reports them as the `capture_integrity` check (NOT_PERFORMED when none was sent) and, for an account whose policy is `fail`, fails a flagged production session with `CAPTURE_TAMPERED`. The answer never says how they were judged. See docs/capture-integrity.md for each signal and its limits.',
    request: {
      ...params,
      body: { required: true, content: { 'application/json': { schema: integrityUploadRequest } } },
    },
    responses: {
      200: json(integrityUploadResponse, 'Recorded'),
      ...publicErrors(401, 404, 409, 413, 415, 422, 429, 503),
    },
  });
  registry.registerPath({
    operationId: 'uploadLivenessFrames',
    method: 'post',
    path: '/v1/capture/{session_id}/liveness',
    summary: 'Upload the liveness frames at once (sandbox sessions; quality gate only)',
    description:
      'The one-shot upload of the challenge that start returned. A production session (liveness_mode paced) refuses it with 409 CONFLICT naming the paced routes: `POST /v1/capture/{session_id}/liveness/steps`, then `…/steps/{step_id}/frames` and `…/steps/{step_id}/complete`.',
    security: CAPTURE_TOKEN,
    request: {
      ...params,
      body: { required: true, content: { 'multipart/form-data': { schema: livenessForm } } },
    },
    responses: { 200: json(livenessResponse, 'The quality gate'), ...uploadErrors },
  });
  registry.registerPath({
    operationId: 'uploadSelfie',
    method: 'put',
    path: '/v1/capture/{session_id}/selfie',
    summary: 'Upload the selfie',
    security: CAPTURE_TOKEN,
    request: { ...params, body: image('The selfie, same rules as a document side') },
    responses: { 200: json(selfieResponse, 'Whether a face was found'), ...uploadErrors },
  });
  registry.registerPath({
    operationId: 'submitCapture',
    method: 'post',
    path: '/v1/capture/{session_id}/submit',
    summary: 'Hand the capture to the decision (idempotent)',
    security: CAPTURE_TOKEN,
    request: params,
    responses: { 202: json(submitResponse, 'Decision pending'), ...publicErrors(401, 404, 409, 429, 503) },
  });
  registry.registerPath({
    operationId: 'getCaptureStatus',
    method: 'get',
    path: '/v1/capture/{session_id}',
    summary: 'Capture status (steps only with the token)',
    security: OPTIONAL_TOKEN,
    request: params,
    responses: { 200: json(captureStatusResponse, 'The status'), ...publicErrors(401, 404) },
  });
  registry.registerPath({
    operationId: 'streamCaptureStatus',
    method: 'get',
    path: '/v1/capture/{session_id}/events',
    security: PUBLIC,
    summary: 'The capture status as Server-Sent Events, on every change until decided',
    request: params,
    responses: {
      200: eventStream('The capture status on every change until decided', 'CaptureStatus'),
      ...publicErrors(404),
    },
  });
  registry.registerPath({
    operationId: 'getCaptureProgress',
    method: 'get',
    path: '/v1/capture/{session_id}/progress',
    security: PUBLIC,
    summary: 'The coarse step the applicant is on (no token: for the desktop that handed off to a phone)',
    request: params,
    responses: { 200: json(captureProgressResponse, 'The progress'), ...publicErrors(404) },
  });
  registry.registerPath({
    operationId: 'streamCaptureProgress',
    method: 'get',
    path: '/v1/capture/{session_id}/progress/events',
    security: PUBLIC,
    summary: 'The progress as Server-Sent Events, on every change until decided',
    request: params,
    responses: {
      200: eventStream('The progress on every change until decided', 'CaptureProgress'),
      ...publicErrors(404),
    },
  });
}
