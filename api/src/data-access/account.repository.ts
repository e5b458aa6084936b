import { createHash } from 'node:crypto';
import { Connection } from 'mongoose';
import { Environment } from '../domain/environment';
import { SecretBox } from '../shared/secret-box';
import { accountModels, ApiKeyDocument } from './account.model';

export interface AccountRecord {
  accountId: string;
  name: string;
  plan: string;
  watchlist: boolean;
}

export interface ResolvedKey {
  keyId: string;
  accountId: string;
  environment: Environment;
}

const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The store of accounts, their hashed API keys and their sealed webhook secrets. */
export class AccountRepository {
  private readonly models;

  constructor(connection: Connection, private readonly secrets: SecretBox) {
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
      webhook_secret_sealed: this.secrets.seal(account.webhookSecret),
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
    const result = await this.models.ApiKey.updateMany(
      { account_id: accountId, environment, expires_at: null, _id: { $ne: hashApiKey(exceptKey) } },
      { $set: { expires_at: at } },
    );
    return result.modifiedCount;
  }

  async resolveKey(key: string, now: Date): Promise<ResolvedKey | null> {
    const doc = await this.models.ApiKey.findById(hashApiKey(key)).lean();
    if (!doc || (doc.expires_at && doc.expires_at <= now)) return null;
    return { keyId: doc._id.slice(0, 16), accountId: doc.account_id, environment: doc.environment };
  }

  async find(accountId: string): Promise<AccountRecord | null> {
    const doc = await this.models.Account.findById(accountId).lean();
    return doc ? { accountId: doc._id, name: doc.name, plan: doc.plan, watchlist: doc.watchlist } : null;
  }

  async count(): Promise<number> {
    return this.models.Account.countDocuments();
  }

  async webhookSecret(accountId: string): Promise<string | null> {
    const doc = await this.models.Account.findById(accountId, { webhook_secret_sealed: 1 }).lean();
    return doc ? this.secrets.open(doc.webhook_secret_sealed) : null;
  }

  async replaceWebhookSecret(accountId: string, webhookSecret: string): Promise<boolean> {
    const result = await this.models.Account.updateOne(
      { _id: accountId },
      { $set: { webhook_secret_sealed: this.secrets.seal(webhookSecret) } },
    );
    return result.matchedCount === 1;
  }
}
