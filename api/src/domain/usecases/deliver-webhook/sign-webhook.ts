import { createHmac } from 'node:crypto';

const STANDARD_WEBHOOKS_PREFIX = 'whsec_';

/**
 * The signature headers of one attempt (contract.md, Webhooks):
 * - X-Bio-Signature: hex HMAC-SHA256 of the raw body, keyed with the secret string as issued;
 * - webhook-id / webhook-timestamp / webhook-signature per Standard Webhooks, keyed with the
 *   base64-decoded part after `whsec_`, over "id.timestamp.body" (the timestamp defeats replays).
 * `body` must be the exact string that is sent: both MACs are over its UTF-8 bytes.
 */
export function signWebhook(
  secret: string,
  deliveryId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const bioSignature = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');
  const key = Buffer.from(
    secret.startsWith(STANDARD_WEBHOOKS_PREFIX) ? secret.slice(STANDARD_WEBHOOKS_PREFIX.length) : secret,
    'base64',
  );
  const standard = createHmac('sha256', key)
    .update(`${deliveryId}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return {
    'Content-Type': 'application/json',
    'X-Bio-Signature': bioSignature,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${standard}`,
  };
}
