import type { QueryShape } from './query-shape';

const id = 'ses_0123456789abcdefghijklmn';
const now = new Date();

/**
 * The shapes on sessions and the work in flight on them: reads by id on the request path, the
 * conditional writes, the sweeps over the in-flight collections, retention, transition claims,
 * attempts, captures and webhook deliveries.
 */
export const SESSION_QUERY_SHAPES: QueryShape[] = [
  {
    what: 'every session read by id (GET status/result/report/webhooks, capture, transitions, jobs)',
    collection: 'sessions',
    filter: { _id: id },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  // Conditional writes (transitions and their claim roll-forward, redaction, a settlement copied, a
  // redelivery opened, a ledger entry written, a decision requested): kept whole, because on
  // MongoDB the filter is what makes the write atomic; FerretDB (patched, scripts/build-ferretdb.sh)
  // reads the one document by the _id index and checks the rest (before the patch, every document).
  {
    what: 'a conditional write on a session (transition, redaction, settlement, redelivery, ledger written)',
    collection: 'sessions',
    filter: { _id: id, status: 'PENDING', attempt: 2 },
    mongoIndex: '_id_',
    ferretdb: 'id-index-then-filter',
  },
  {
    what: 'GET /v1/credentials/{token}: the token, then its session by id',
    collection: 'credential_tokens',
    filter: { _id: 'cred_x' },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  // The sweeps read the in-flight collections (open sessions, owed webhooks and ledger entries,
  // unfinished redactions): whole on FerretDB, but they hold only unfinished work; each session is
  // then read by _id.
  {
    what: 'expiry sweep: open sessions past their deadline',
    collection: 'open_sessions',
    filter: { due_at: { $lte: now } },
    sort: { due_at: 1 },
    mongoIndex: 'due_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'decision sweep: open sessions submitted',
    collection: 'open_sessions',
    filter: { decision_requested_at: { $ne: null } },
    sort: { decision_requested_at: 1 },
    mongoIndex: 'decision_requested_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'outbox sweep: owed webhooks, oldest first',
    collection: 'pending_webhooks',
    filter: {},
    sort: { since: 1 },
    mongoIndex: 'since_1',
    ferretdb: 'scan',
  },
  {
    what: 'billing sweep: owed ledger entries, oldest first',
    collection: 'pending_ledger_entries',
    filter: {},
    sort: { since: 1 },
    mongoIndex: 'since_1',
    ferretdb: 'scan',
  },
  {
    what: 'retention sweep: redactions begun long ago and never finished, oldest first',
    collection: 'unfinished_redactions',
    filter: { since: { $lte: now } },
    sort: { since: 1 },
    mongoIndex: 'since_1',
    ferretdb: 'scan',
  },
  {
    what: 'in-flight entry written or read by session id',
    collection: 'open_sessions',
    filter: { _id: id },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'in-flight entry removed if unchanged (attempt, round, or time written)',
    collection: 'pending_webhooks',
    filter: { _id: id, attempt: 1, round: 0 },
    mongoIndex: '_id_',
    ferretdb: 'id-index-then-filter',
  },
  // Retention reads ended, unredacted sessions: history by nature; only with a retention period set.
  {
    what: 'retention sweep (decided)',
    collection: 'sessions',
    filter: { redacted_at: null, status: { $in: ['VERIFIED', 'FAILED'] }, decided_at: { $lte: now } },
    mongoIndex: 'redacted_at_1_status_1_decided_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'retention sweep (expired)',
    collection: 'sessions',
    filter: { redacted_at: null, status: 'EXPIRED', updated_at: { $lte: now } },
    mongoIndex: 'redacted_at_1_status_1_decided_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'transition claim by id',
    collection: 'session_transitions',
    filter: { _id: `${id}:PENDING` },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'claim recovery window',
    collection: 'session_transitions',
    filter: { claimed_at: { $gte: now, $lt: now } },
    mongoIndex: 'claimed_at_1',
    ferretdb: 'scan',
  },
  {
    what: 'GET /v1/sessions/{id}/webhooks: the attempt ids of a session',
    collection: 'webhook_delivery_attempts_by_session',
    filter: { _id: id },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'GET /v1/sessions/{id}/webhooks: each attempt by id',
    collection: 'webhook_delivery_attempts',
    filter: { _id: 'att_x' },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'GET /v1/sessions/{id}/attempts',
    collection: 'session_attempts',
    filter: { session_id: id },
    sort: { attempt: 1 },
    mongoIndex: 'session_id_1_attempt_1',
    ferretdb: 'scan',
  },
  {
    what: 'archived attempt by id (webhook payload of an earlier attempt)',
    collection: 'session_attempts',
    filter: { _id: `${id}:1` },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'capture state by id',
    collection: 'capture_states',
    filter: { _id: `${id}:1` },
    mongoIndex: '_id_',
    ferretdb: 'id-index',
  },
  {
    what: 'capture purge sweep',
    collection: 'capture_states',
    filter: { purge_after: { $lte: now }, purged_at: null },
    mongoIndex: 'purge_after_1',
    ferretdb: 'scan',
  },
];
