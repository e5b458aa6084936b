import { WebhookSecrets } from '../domain/ports/webhook-sender';

/**
 * Webhook secrets for the delivery worker, kept briefly so a burst of deliveries for one account
 * does not re-read and re-decrypt the same secret each time. A rotated secret is used within
 * `ttlMs`; until then deliveries carry the previous one (receivers reject them, and the retry
 * after WEBHOOK_RETRY_INTERVAL_SECONDS is signed with the new one).
 */
export class CachedWebhookSecrets implements WebhookSecrets {
  private readonly entries = new Map<string, { secret: string | null; until: number }>();

  constructor(
    private readonly source: WebhookSecrets,
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async webhookSecret(accountId: string): Promise<string | null> {
    const cached = this.entries.get(accountId);
    if (cached && cached.until > this.now()) return cached.secret;
    const secret = await this.source.webhookSecret(accountId);
    if (this.entries.size > 10_000) this.entries.clear(); // bounded: accounts are few, but never grow without limit
    this.entries.set(accountId, { secret, until: this.now() + this.ttlMs });
    return secret;
  }
}
