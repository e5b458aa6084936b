import { Environment } from '../environment';

/**
 * Decides whether a webhook_url may be used. Returns the reason it may not, or null. The real
 * policy resolves the host and refuses non-public addresses (egress safety).
 */
export interface WebhookTargetPolicy {
  refuse(url: URL, environment: Environment): Promise<string | null>;
}
