import { TenantSessions as TenantSessionsPort } from '../domain/ports/tenant-sessions';
import { Tenant } from '../domain/environment';
import { SessionUpdate } from '../domain/session/session';
import { SessionStatus } from '../domain/session-status';
import { AppError } from '../shared/app-error';
import { SessionScope, SessionStore } from './session-store';
import { SessionTransitionRepository } from './session-transitions.repository';
import { SessionDocument } from './session.model';

/** One tenant's sessions: every read and transition carries the account and environment. */
export class TenantSessions implements TenantSessionsPort {
  constructor(
    private readonly store: SessionStore,
    private readonly transitions: SessionTransitionRepository,
    private readonly tenant: Tenant,
  ) {}

  private get scope(): SessionScope {
    return { account_id: this.tenant.accountId, environment: this.tenant.environment };
  }

  async get(id: string): Promise<SessionDocument> {
    const doc = await this.store.open(await this.store.findSealedInScope(id, this.scope));
    if (!doc) throw await this.missFor(id);
    return doc;
  }

  /** Of racing writers exactly one wins; the others get 409 (or 403/404 when it is not theirs / not there). */
  async transition(
    id: string,
    from: SessionStatus[],
    update: SessionUpdate,
    onAttempt?: number,
  ): Promise<SessionDocument> {
    const outcome = await this.transitions.transition(this.scope, id, from, update, onAttempt);
    if (outcome === 'missing') throw await this.missFor(id);
    if (typeof outcome === 'string')
      throw AppError.conflict(`The session is ${outcome}; this action needs it to be ${from.join(' or ')}.`);
    return outcome;
  }

  /** Tells "not yours" (403) from "does not exist" (404) without revealing anything else. */
  private async missFor(id: string): Promise<AppError> {
    const exists = await this.store.exists(id);
    return exists ? AppError.forbidden() : AppError.notFound('session');
  }
}
