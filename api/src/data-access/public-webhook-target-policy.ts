import { WebhookTargetPolicy } from '../domain/ports/webhook-target-policy';
import { isIpLiteral, refusalFor, refusalForAll, Resolver, systemResolver } from './egress-guard';
import { withTimeout } from './with-timeout';

const RESOLVE_TIMEOUT_MS = 2_000;

/**
 * Creation-time check of webhook_url: refuse a host that is, or resolves to, a non-public address.
 * A name that does not resolve right now is accepted: it reaches nothing, DNS outages are often
 * transient, and the connect-time guard (webhook-sender.ts) re-checks every attempt anyway.
 */
export function publicWebhookTargetPolicy(resolver: Resolver = systemResolver): WebhookTargetPolicy {
  return {
    async refuse(url: URL) {
      const host = url.hostname;
      if (isIpLiteral(host)) {
        const refusal = refusalFor(host);
        return refusal ? `must not point at a non-public address (${refusal})` : null;
      }
      let addresses;
      try {
        addresses = await withTimeout(resolver(host), RESOLVE_TIMEOUT_MS, 'DNS lookup');
      } catch {
        return null;
      }
      const refusal = refusalForAll(addresses);
      return refusal ? `must not resolve to a non-public address (${refusal})` : null;
    },
  };
}
