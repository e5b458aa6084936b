/**
 * OpenAPI links between operations, so generated clients and stateful fuzzers (Schemathesis) can
 * follow one session through its life: from any answer that names a session to every operation
 * that takes its id, from a started capture to the uploads its token allows, and from a verified
 * result to its credential.
 */
const SESSION_OPERATIONS = [
  'getSession', 'getSessionResult', 'cancelSession', 'retrySession', 'listSessionAttempts', 'getSessionReport', 'redactSession', 'simulateSession',
  'listWebhookDeliveries',
];
const CAPTURE_OPERATIONS = [
  'startCapture', 'uploadDocumentFront', 'uploadDocumentBack', 'uploadLivenessFrames', 'uploadSelfie', 'submitCapture', 'getCaptureStatus', 'getCaptureProgress',
  'openVerificationPage', 'showCredentialPage',
];
const TOKEN_OPERATIONS = ['uploadDocumentFront', 'uploadDocumentBack', 'uploadLivenessFrames', 'uploadSelfie', 'submitCapture', 'getCaptureStatus'];

const pascal = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1);

/** From an answer carrying `session_id` (created, retried, decided) to every operation on that session. */
export function sessionLinks() {
  const link = (operationId: string, param: string) => [pascal(operationId), { operationId, parameters: { [param]: '$response.body#/session_id' } }];
  return Object.fromEntries([...SESSION_OPERATIONS.map((op) => link(op, 'id')), ...CAPTURE_OPERATIONS.map((op) => link(op, 'session_id'))]);
}

/** From a started capture to the calls its token authorizes (the token travels as `Authorization: Bearer`). */
export function captureTokenLinks() {
  return Object.fromEntries(
    TOKEN_OPERATIONS.map((operationId) => [
      pascal(operationId),
      { operationId, parameters: { session_id: '$request.path.session_id', 'header.Authorization': 'Bearer {$response.body#/capture_token}' } },
    ]),
  );
}

/** From a result to its credential (null unless VERIFIED). */
export const credentialLinks = () => ({ CheckCredential: { operationId: 'checkCredential', parameters: { token: '$response.body#/credential_token' } } });
