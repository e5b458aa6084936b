import { createHash } from 'node:crypto';
import { Connection } from 'mongoose';
import { Environment } from '../domain/environment';
import type { CaptureIntegrityPolicy } from '../domain/capture/capture-integrity';
import { AccountAdmin, AccountRecord, RetentionOverrides } from '../domain/ports/account-store';
import { WebhookSecrets } from '../domain/ports/webhook-sender';
import { PlanChange } from '../domain/pricing/plan-at';
import { accountModels, ApiKeyDocument } from './account.model';
import { webhookSecretWhere as secretWhere } from '../shared/sealer';
import { PiiVault } from './pii-vault';
import { retryTransient } from './store-retry';
import { AccountChanges, noAccountChanges } from '../domain/ports/account-changes';

export type { AccountRecord };

export interface ResolvedKey {
  keyId: string;
  accountId: string;
  environment: Environment;
}

/** A key as stored, expired or not: the caller decides against its own clock. */
export interface StoredKey extends ResolvedKey {
  expiresAt: Date | null;
}

type SecretSealer = Pick<PiiVault, 'seal' | 'open'>;

const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * The store of accounts, their hashed API keys and their sealed webhook secrets. Every change to an
 * existing account or key is announced after it is stored (API processes cache both until then);
 * creating an account or a key needs no announcement, as nothing caches what does not exist yet.
 */
export class AccountRepository implements AccountAdmin, RetentionOverrides, WebhookSecrets {
  private readonly models;

  constructor(
    connection: Connection,
    private readonly vault: SecretSealer,
    private readonly changes: AccountChanges = noAccountChanges,
  ) {
    this.models = accountModels(connection);
  }

  /** Builds the declared indexes (idempotent). */
  async init(): Promise<void> {
    await Promise.all([this.models.Account.init(), this.models.ApiKey.init()]);
  }

  async create(account: AccountRecord & { webhookSecret: string }, now: Date): Promise<void> {
    await this.models.Account.create({
      _id: account.accountId,
      name: account.name,
      plan: account.plan,
      watchlist: account.watchlist,
      webhook_secret_sealed: await this.vault.seal(secretWhere(account.accountId), account.webhookSecret),
      created_at: now,
    });
  }

  async addKey(accountId: string, environment: Environment, key: string, now: Date): Promise<void> {
    const doc: ApiKeyDocument = {
      _id: hashApiKey(key),
      account_id: accountId,
      environment,
      hint: key.slice(0, 12),
      created_at: now,
      expires_at: null,
    };
    await this.models.ApiKey.create(doc);
  }

  /** Every key of the account in that environment stops working at `at` (rotation grace period). */
  async expireKeys(accountId: string, environment: Environment, at: Date, exceptKey: string): Promise<number> {
    const result = await this.announced(() =>
      this.models.ApiKey.updateMany(
        { account_id: accountId, environment, expires_at: null, _id: { $ne: hashApiKey(exceptKey) } },
        { $set: { expires_at: at } },
      ),
    );
    return result.modifiedCount;
  }

  async findKey(key: string): Promise<StoredKey | null> {
    const doc = await retryTransient(() => this.models.ApiKey.findById(hashApiKey(key)).lean().exec());
    if (!doc) return null;
    return {
      keyId: doc._id.slice(0, 16),
      accountId: doc.account_id,
      environment: doc.environment,
      expiresAt: doc.expires_at ?? null,
    };
  }

  async find(accountId: string): Promise<AccountRecord | null> {
    const doc = await retryTransient(() => this.models.Account.findById(accountId).lean().exec());
    if (!doc) return null;
    return {
      accountId: doc._id,
      name: doc.name,
      plan: doc.plan,
      watchlist: doc.watchlist,
      planChanges: doc.plan_changes ?? [],
      defaultCountry: doc.default_country ?? null,
      piiRetentionDays: doc.pii_retention_days ?? null,
      knownFacePolicy: doc.known_face_policy ?? 'report',
      captureIntegrityPolicy: doc.capture_integrity_policy ?? 'report',
    };
  }

  /** Appends a plan change effective from `effectiveFrom` (earlier decisions keep the plan they had). */
  async addPlanChange(accountId: string, change: PlanChange): Promise<boolean> {
    const result = await this.announced(() =>
      this.models.Account.updateOne({ _id: accountId }, { $push: { plan_changes: change } }).exec(),
    );
    return result.matchedCount === 1;
  }

  async setBillingDefaults(
    accountId: string,
    fields: { default_country?: string | null; pii_retention_days?: number | null },
  ): Promise<boolean> {
    const result = await this.announced(() =>
      this.models.Account.updateOne({ _id: accountId }, { $set: fields }).exec(),
    );
    return result.matchedCount === 1;
  }

  async setKnownFacePolicy(accountId: string, policy: 'report' | 'fail'): Promise<boolean> {
    const result = await this.announced(() =>
      this.models.Account.updateOne({ _id: accountId }, { $set: { known_face_policy: policy } }).exec(),
    );
    return result.matchedCount === 1;
  }

  async setCaptureIntegrityPolicy(accountId: string, policy: CaptureIntegrityPolicy): Promise<boolean> {
    const result = await this.announced(() =>
      this.models.Account.updateOne({ _id: accountId }, { $set: { capture_integrity_policy: policy } }).exec(),
    );
    return result.matchedCount === 1;
  }

  /** Accounts whose retention differs from the deployment's, with their days (retention sweep). */
  async retentionOverrides(): Promise<Array<{ accountId: string; days: number }>> {
    const docs = await this.models.Account.find(
      { pii_retention_days: { $ne: null } },
      { _id: 1, pii_retention_days: 1 },
    )
      .lean()
      .exec();
    return docs.map((d) => ({ accountId: d._id, days: d.pii_retention_days as number }));
  }

  async count(): Promise<number> {
    return this.models.Account.countDocuments();
  }

  async webhookSecret(accountId: string): Promise<string | null> {
    const doc = await this.models.Account.findById(accountId, { webhook_secret_sealed: 1 }).lean();
    return doc ? this.vault.open(secretWhere(accountId), doc.webhook_secret_sealed) : null;
  }

  async replaceWebhookSecret(accountId: string, webhookSecret: string): Promise<boolean> {
    const sealed = await this.vault.seal(secretWhere(accountId), webhookSecret);
    const result = await this.announced(() =>
      this.models.Account.updateOne({ _id: accountId }, { $set: { webhook_secret_sealed: sealed } }).exec(),
    );
    return result.matchedCount === 1;
  }

  /**
   * Stores a change, then announces it. Refused before writing where it could never be announced;
   * a failed announcement fails the caller, whose change is stored but may be served stale from
   * API caches until their entries age out (credential-cache.ts) or the command is run again.
   */
  private async announced<T>(write: () => Promise<T>): Promise<T> {
    if (!this.changes.canAnnounce) await this.changes.announce();
    const result = await write();
    await this.changes.announce();
    return result;
  }
}
