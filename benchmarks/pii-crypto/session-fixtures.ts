/** A session as the API creates it and a decision as the worker writes it, with personal data of realistic size. */
import { SessionDocument } from '../../api/src/public-entry';
import { serializeResult } from '../../api/src/domain/results/result-resource';

export function newSession(id: string): SessionDocument {
  const now = new Date();
  return {
    _id: id,
    account_id: 'acct_bench',
    environment: 'production',
    status: 'PENDING',
    failure_reason: null,
    return_url: 'https://example.com/r',
    webhook_url: 'https://example.com/w',
    expected_name: 'Tomas Oestergaard',
    expected_dob: '1958-12-21',
    expected_address: '12 Rue des Secrets, 75001 Paris',
    locale: 'en',
    metadata_json: '{"order":"o-17","customer":"c-123456"}',
    created_at: now,
    updated_at: now,
    expires_at: now,
    started_at: null,
    decided_at: null,
    confidence: null,
    verified_until: null,
    credential_token: null,
    result_body: null,
    webhook_state: 'none',
    webhook_delivery_id: null,
    billed: true,
  };
}

/** A decision as the worker writes it: the result resource and a report of realistic size. */
export function decisionUpdate(id: string) {
  const result = serializeResult(
    {
      session_id: id,
      status: 'VERIFIED',
      environment: 'production',
      person: {
        name: 'Tomas Oestergaard',
        dob: '1958-12-21',
        document_type: 'passport',
        document_country: 'MA',
        document_jurisdiction: null,
        address: null,
      },
      checks: { document: 'PASS', liveness: 'PASS', antispoof: 'PASS', face_match: 'PASS' },
      confidence: 0.8731,
      verified_until: new Date(),
      failure_reason: null,
      credential_token: 'cred_0123456789abcdefghijABCDEFGHIJ',
      attempt: 1,
    },
    '{"order":"o-17","customer":"c-123456"}',
  );
  const check = (name: string) => ({
    verdict: 'PASS',
    reason: null,
    scores: [{ name: `${name}_score`, value: 0.91234, threshold: 0.5, comparison: 'gte' }],
    model: { name, version: '1', sha256: 'a'.repeat(64) },
    duration_ms: 123,
  });
  const report = JSON.stringify({
    session_id: id,
    decided_at: new Date().toISOString(),
    checks: Object.fromEntries(['document', 'liveness', 'antispoof', 'face_match'].map((n) => [n, check(n)])),
    document: { format: 'TD3', type: 'passport', country: 'MA', corrections: [] },
  });
  const now = new Date();
  return {
    status: 'VERIFIED' as const,
    failure_reason: null,
    confidence: 0.8731,
    result_body: result,
    report_json: report,
    decided_at: now,
    updated_at: now,
    webhook_state: 'pending' as const,
  };
}
