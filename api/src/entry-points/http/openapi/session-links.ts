/**
 * OpenAPI links between operations, so generated clients and stateful fuzzers (Schemathesis) can
 * follow one session through its life: from any answer that names a session to every operation
 * that takes its id, and from a verified result to its credential. (The capture token is a
 * security credential, not a parameter, so no link can carry it to the uploads.)
 */
const SESSION_OPERATIONS = [
  'getSession',
  'getSessionResult',
  'cancelSession',
  'retrySession',
  'listSessionAttempts',
  'getSessionReport',
  'redactSession',
  'simulateSession',
  'listWebhookDeliveries',
];
const CAPTURE_OPERATIONS = [
  'startCapture',
  'uploadDocumentFront',
  'uploadDocumentBack',
  'issueChipChallenge',
  'uploadDocumentChip',
  'putCaptureIntegrity',
  'uploadLivenessFrames',
  'revealPacedStep',
  'uploadPacedFrames',
  'completePacedStep',
  'uploadSelfie',
  'submitCapture',
  'getCaptureStatus',
  'getCaptureProgress',
  'openVerificationPage',
  'showCredentialPage',
];

const pascal = (operationId: string) => operationId[0].toUpperCase() + operationId.slice(1);

interface OperationLink {
  operationId: string;
  parameters: Record<string, string>;
}

/** From an answer carrying `session_id` (created, retried, decided) to every operation on that session. */
export function sessionLinks() {
  const link = (operationId: string, param: string): [string, OperationLink] => [
    pascal(operationId),
    { operationId, parameters: { [param]: '$response.body#/session_id' } },
  ];
  return Object.fromEntries([
    ...SESSION_OPERATIONS.map((op) => link(op, 'id')),
    ...CAPTURE_OPERATIONS.map((op) => link(op, 'session_id')),
  ]);
}

/** From a result to its credential (null unless VERIFIED). */
export const credentialLinks = () => ({
  CheckCredential: {
    operationId: 'checkCredential',
    parameters: { token: '$response.body#/credential_token' },
  },
});

/** From a revealed paced step to the calls that take its step_id. */
export const pacedStepLinks = () =>
  Object.fromEntries(
    ['uploadPacedFrames', 'completePacedStep'].map((operationId) => [
      pascal(operationId),
      {
        operationId,
        parameters: { session_id: '$request.path.session_id', step_id: '$response.body#/step_id' },
      },
    ]),
  );
