import { Environment } from '../environment';
import { PlanChange } from '../pricing/plan-at';
import type { CaptureIntegrityPolicy } from '../capture/capture-integrity';

export interface AccountRecord {
  accountId: string;
  name: string;
  plan: string;
  watchlist: boolean;
  planChanges?: PlanChange[];
  defaultCountry?: string | null;
  piiRetentionDays?: number | null;
  /** What a face verified before under another identity does to a production session (absent = report). */
  knownFacePolicy?: 'report' | 'fail';
  /** Absent: `report`. */
  captureIntegrityPolicy?: CaptureIntegrityPolicy;
}

export interface AccountLookup {
  find(accountId: string): Promise<AccountRecord | null>;
}

/** Accounts whose retention differs from the deployment's, with their days (retention sweep). */
export interface RetentionOverrides {
  retentionOverrides(): Promise<Array<{ accountId: string; days: number }>>;
}

/** What issuing accounts and rotating their credentials writes. Keys are stored hashed, secrets sealed. */
export interface AccountAdmin extends AccountLookup {
  create(account: AccountRecord & { webhookSecret: string }, now: Date): Promise<void>;
  addKey(accountId: string, environment: Environment, key: string, now: Date): Promise<void>;
  /** Every other key of the account in that environment stops working at `at`; how many did. */
  expireKeys(accountId: string, environment: Environment, at: Date, exceptKey: string): Promise<number>;
  replaceWebhookSecret(accountId: string, webhookSecret: string): Promise<boolean>;
}
