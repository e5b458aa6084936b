import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CAPTURE_TOKEN, json, publicErrors } from '../openapi/operation-parts';
import { pacedStepLinks } from '../openapi/session-links';
import {
  pacedChunkForm,
  pacedChunkResponse,
  pacedStepDoneResponse,
  pacedStepParams,
  pacedStepResponse,
} from '../schemas/capture-paced.schemas';
import { captureParams } from '../schemas/capture.schemas';

/**
 * The server-paced liveness challenge (docs/paced-challenge.md): reveal a step, stream its frames
 * in chunks as they are captured, complete it; repeat until `next` is `selfie`.
 */
export function registerPacedCapturePaths(registry: OpenAPIRegistry): void {
  const errors = publicErrors(401, 404, 409, 429, 503);
  registry.registerPath({
    operationId: 'revealPacedStep',
    method: 'post',
    path: '/v1/capture/{session_id}/liveness/steps',
    security: CAPTURE_TOKEN,
    summary: 'Reveal the next step of the paced liveness challenge (drawn now)',
    description:
      'No body. The first call starts a challenge (a liveness attempt, 3 in all); each later call reveals the next step once the previous one was completed. 409 CONFLICT while a step is open and before its deadline (details name it), once the challenge was captured, or when no attempt is left. A call after an open step missed its deadline ends that challenge and starts a new one.',
    request: { params: captureParams },
    responses: {
      201: { ...json(pacedStepResponse, 'The step, its target and its deadline'), links: pacedStepLinks() },
      ...errors,
    },
  });
  registry.registerPath({
    operationId: 'uploadPacedFrames',
    method: 'post',
    path: '/v1/capture/{session_id}/liveness/steps/{step_id}/frames',
    security: CAPTURE_TOKEN,
    summary: "Upload a chunk of the open step's frames, as they are captured",
    description:
      "Within the step's deadline (else 409 CONFLICT: the challenge ended; reveal again). Timestamps outside the bounds, out of order with the step's earlier frames, or over the step's frame or chunk limits: 422 VALIDATION_ERROR, and nothing of the chunk is kept. A step other than the open one: 409; an unknown step_id: 404.",
    request: {
      params: pacedStepParams,
      body: { required: true, content: { 'multipart/form-data': { schema: pacedChunkForm } } },
    },
    responses: {
      200: json(pacedChunkResponse, 'The receipt'),
      ...publicErrors(401, 404, 409, 413, 415, 422, 429, 503),
    },
  });
  registry.registerPath({
    operationId: 'completePacedStep',
    method: 'post',
    path: '/v1/capture/{session_id}/liveness/steps/{step_id}/complete',
    security: CAPTURE_TOKEN,
    summary: "Close the step: no more frames; answers the step's quality gate and what comes next",
    description:
      'No body. Idempotent: a second call answers the same. After the deadline it answers next = restart (or selfie when no attempt is left).',
    request: { params: pacedStepParams },
    responses: { 200: json(pacedStepDoneResponse, 'The quality gate and the next move'), ...errors },
  });
}
