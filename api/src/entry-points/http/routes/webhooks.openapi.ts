import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { API_KEY, json, keyed, keyedErrors } from '../openapi/operation-parts';
import { sessionIdParam } from '../schemas/session.schemas';
import { deliveryLogSchema } from '../schemas/webhook-delivery.schemas';

/** GET /v1/sessions/{id}/webhooks as the OpenAPI document declares it (webhooks.routes.ts serves it). */
export function registerWebhookPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    operationId: 'listWebhookDeliveries', method: 'get', path: '/v1/sessions/{id}/webhooks', security: API_KEY,
    summary: "The session's webhook delivery attempts (time, status code, latency, error)",
    request: { params: sessionIdParam }, responses: { 200: keyed(json(deliveryLogSchema, 'The delivery log')), ...keyedErrors(401, 403, 404) },
  });
}
