/**
 * OpenAPI links from a created session to every operation that takes its id, so generated clients
 * and stateful fuzzers (Schemathesis) can follow one session through its life.
 */
const SESSION_OPERATIONS = [
  'getSession', 'getSessionResult', 'cancelSession', 'retrySession', 'listSessionAttempts', 'getSessionReport', 'redactSession', 'simulateSession',
  'listWebhookDeliveries',
];
const CAPTURE_OPERATIONS = [
  'startCapture', 'uploadDocumentFront', 'uploadDocumentBack', 'uploadLivenessFrames', 'uploadSelfie', 'submitCapture', 'getCaptureStatus', 'getCaptureProgress',
];

const pascal = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1);

export function createdSessionLinks() {
  const link = (operationId: string, param: string) => [pascal(operationId), { operationId, parameters: { [param]: '$response.body#/session_id' } }];
  return Object.fromEntries([...SESSION_OPERATIONS.map((op) => link(op, 'id')), ...CAPTURE_OPERATIONS.map((op) => link(op, 'session_id'))]);
}
