import type { QueryShape } from './query-shape';

const id = 'ses_0123456789abcdefghijklmn';
const now = new Date();

/** The shapes on accounts and their keys, idempotency records, the audit log and the billing ledger. */
export const ACCOUNT_QUERY_SHAPES: QueryShape[] = [
  {
    what: 'authentication: API key by its hash, then its account',
    collection: 'api_keys',
    filter: { _id: 'f'.repeat(64) },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'known faces: the next slots of an account gallery, by id',
    collection: 'known_faces',
    filter: { _id: { $in: ['g#1', 'g#2', 'g#3'] } },
    mongoIndex: '_id_',
    ferretdb: 'id-index-then-filter',
  },
  {
    what: 'account by id',
    collection: 'accounts',
    filter: { _id: 'acct_x' },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'key rotation: the other keys of an account',
    collection: 'api_keys',
    filter: { account_id: 'acct_x', environment: 'production', expires_at: null, _id: { $ne: 'k' } },
    mongoIndex: 'account_id_1_environment_1',
    ferretdb: 'scan',
  },
  {
    what: 'accounts with a retention period',
    collection: 'accounts',
    filter: { pii_retention_days: { $ne: null } },
    mongoIndex: 'pii_retention_days_1',
    ferretdb: 'scan',
  },
  {
    what: 'idempotency record by key',
    collection: 'idempotency_keys',
    filter: { _id: 'idem_x' },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'idempotency expiry',
    collection: 'idempotency_keys',
    filter: { expires_at: { $lte: now } },
    mongoIndex: 'expires_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'idempotent response expiry',
    collection: 'idempotency_responses',
    filter: { expires_at: { $lte: now } },
    mongoIndex: 'expires_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'audit log of a session',
    collection: 'audit_events',
    filter: { session_id: id },
    sort: { at: 1 },
    mongoIndex: 'session_id_1_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'audit log of an account',
    collection: 'audit_events',
    filter: { account_id: 'acct_x' },
    sort: { at: 1 },
    mongoIndex: 'account_id_1_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'billing ledger of an account-month',
    collection: 'billing_ledger',
    filter: { account_id: 'acct_x', month: '2026-11' },
    sort: { decided_at: 1 },
    mongoIndex: 'account_id_1_month_1_decided_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'billing ledger of a session',
    collection: 'billing_ledger',
    filter: { session_id: id },
    sort: { attempt: 1 },
    mongoIndex: 'session_id_1_attempt_1',
    ferretdb: 'scan',
  },
];
