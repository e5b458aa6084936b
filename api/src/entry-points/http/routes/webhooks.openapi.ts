import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { API_KEY, json, keyed, keyedErrors } from '../openapi/operation-parts';
import { resultSchema } from '../schemas/result.schemas';
import { sessionIdParam } from '../schemas/session.schemas';
import { deliveryLogSchema } from '../schemas/webhook-delivery.schemas';
import { z } from '../schemas/zod-openapi';

const signatureHeaders = z.object({
  'X-Bio-Signature': z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .openapi({
      description:
        'Lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook secret as issued (its UTF-8 bytes, `whsec_` included).',
    }),
  'webhook-id': z
    .string()
    .openapi({ description: 'Standard Webhooks: the same on every retry and redelivery of this result.' }),
  'webhook-timestamp': z
    .string()
    .regex(/^\d+$/)
    .openapi({ description: 'Standard Webhooks: seconds since the epoch.' }),
  'webhook-signature': z.string().openapi({
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256>` keyed with the base64-decoded part of the secret after `whsec_`.',
  }),
});

/** The delivery log (webhooks.routes.ts serves it) and the webhook itself, as the OpenAPI document declares them. */
export function registerWebhookPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/v1/sessions/{id}/webhooks',
    security: API_KEY,
    summary: "The session's webhook delivery attempts (time, status code, latency, error)",
    request: { params: sessionIdParam },
    responses: { 200: keyed(json(deliveryLogSchema, 'The delivery log')), ...keyedErrors(401, 403, 404) },
  });
  registry.registerWebhook({
    operationId: 'sessionDecided',
    method: 'post',
    path: 'sessionDecided',
    security: [],
    summary: "Sent to the session's webhook_url when an attempt is decided (VERIFIED or FAILED)",
    description:
      'The body is the result resource, byte for byte as GET /v1/sessions/{id}/result returns it. Any 2xx ends the delivery; otherwise up to three retries with linear backoff (WEBHOOK_RETRY_INTERVAL_SECONDS × the retry number). Redirects are not followed. Key stored results on session_id + attempt + status.',
    request: {
      headers: signatureHeaders,
      body: { required: true, content: { 'application/json': { schema: resultSchema } } },
    },
    responses: {
      200: { description: 'Any 2xx: delivered' },
      400: { description: 'Any other status (or none within the timeout): retried' },
    },
  });
}
