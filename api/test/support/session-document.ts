import { SessionDocument } from '../../src/data-access/session.model';

/**
 * A PENDING session document as the store keeps it, for tests that write sessions straight through
 * the repositories (no API); `fields` overrides any of it.
 */
export function sessionDocument(id: string, fields: Partial<SessionDocument> = {}): SessionDocument {
  const now = new Date();
  return {
    _id: id,
    account_id: 'acct_a',
    environment: 'sandbox',
    status: 'PENDING',
    failure_reason: null,
    return_url: 'https://e.com',
    webhook_url: 'https://e.com/w',
    expected_name: 'A',
    expected_dob: null,
    expected_address: null,
    locale: 'en',
    metadata_json: null,
    created_at: now,
    updated_at: now,
    expires_at: new Date(now.getTime() + 60_000),
    started_at: null,
    decided_at: null,
    confidence: null,
    verified_until: null,
    credential_token: null,
    result_body: null,
    webhook_state: 'none',
    webhook_delivery_id: null,
    billed: false,
    ...fields,
  };
}
