/** What was done. Reads are logged as well as writes: who looked at a person's data is the point. */
export const AUDIT_ACTIONS = [
  'result.read',
  'report.read',
  'attempts.read',
  'credential.read',
  'session.redact',
  'retention.redact',
  'admin',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who: an integrator's API key (its key id, a hash prefix), the holder of a credential link (the
 * public credential check: nobody to name), the admin CLI, or the service itself (the retention sweep).
 */
export type AuditActor =
  | { type: 'api_key'; id: string }
  | { type: 'credential_holder'; id: null }
  | { type: 'admin'; id: string }
  | { type: 'system'; id: string };

/** One audit record. Ids, names of actions and outcomes only: never a person's data. */
export interface AuditEvent {
  action: AuditAction;
  actor: AuditActor;
  at: Date;
  session_id: string | null;
  account_id: string | null;
  request_id: string | null;
  /** The admin command (e.g. `accounts set-plan`) or the outcome; no personal data. */
  detail: string | null;
}

/** The port use cases record through; the store's audit log implements it. */
export interface AuditLog {
  record(event: AuditEvent): Promise<void>;
}
