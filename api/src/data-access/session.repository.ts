import { Connection, Model } from 'mongoose';
import { Tenant } from '../domain/environment';
import { SessionStatus } from '../domain/session-status';
import { AppError } from '../shared/app-error';
import { SessionDocument, sessionModel } from './session.model';

export type SessionUpdate = Partial<Omit<SessionDocument, '_id' | 'account_id' | 'environment' | 'created_at'>>;

/**
 * The session store. Integrator-facing reads and writes go through `forTenant`, whose every query
 * carries the account and environment; the few tenant-less paths are named for the capability
 * that justifies them (the applicant's session id, a credential token, a system job).
 */
export class SessionRepository {
  readonly model: Model<SessionDocument>;

  constructor(connection: Connection) {
    this.model = sessionModel(connection);
  }

  async insert(doc: SessionDocument): Promise<void> {
    await this.model.create(doc);
  }

  forTenant(tenant: Tenant): TenantSessions {
    return new TenantSessions(this.model, tenant);
  }

  /** The hosted page: the unguessable session id in verification_url is the applicant's capability. */
  findForApplicant(id: string): Promise<SessionDocument | null> {
    return this.model.findById(id).lean<SessionDocument>().exec();
  }

  findByCredentialToken(token: string): Promise<SessionDocument | null> {
    return this.model.findOne({ credential_token: token }).lean<SessionDocument>().exec();
  }

  /** A transition made by the service itself (applicant progress, expiry, a decision). */
  async transitionBySystem(id: string, from: SessionStatus[], update: SessionUpdate): Promise<SessionDocument | null> {
    return this.model
      .findOneAndUpdate({ _id: id, status: { $in: from } }, { $set: update }, { new: true })
      .lean<SessionDocument>()
      .exec();
  }
}

export class TenantSessions {
  constructor(
    private readonly model: Model<SessionDocument>,
    private readonly tenant: Tenant,
  ) {}

  private get scope() {
    return { account_id: this.tenant.accountId, environment: this.tenant.environment };
  }

  async get(id: string): Promise<SessionDocument> {
    const doc = await this.model.findOne({ _id: id, ...this.scope }).lean<SessionDocument>().exec();
    if (!doc) throw await this.missFor(id);
    return doc;
  }

  /**
   * One conditional write on the current status: of two racing writers exactly one matches, and
   * the other gets 409 (or 403/404 when the session is not theirs or does not exist).
   */
  async transition(id: string, from: SessionStatus[], update: SessionUpdate): Promise<SessionDocument> {
    const doc = await this.model
      .findOneAndUpdate({ _id: id, ...this.scope, status: { $in: from } }, { $set: update }, { new: true })
      .lean<SessionDocument>()
      .exec();
    if (doc) return doc;
    const current = await this.model.findOne({ _id: id, ...this.scope }, { status: 1 }).lean<SessionDocument>().exec();
    if (!current) throw await this.missFor(id);
    throw AppError.conflict(`The session is ${current.status}; this action needs it to be ${from.join(' or ')}.`);
  }

  /** Tells "not yours" (403) from "does not exist" (404) without revealing anything else. */
  private async missFor(id: string): Promise<AppError> {
    const exists = await this.model.exists({ _id: id });
    return exists ? AppError.forbidden() : AppError.notFound('session');
  }
}
