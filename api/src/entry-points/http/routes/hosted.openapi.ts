import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { html, PUBLIC } from '../openapi/operation-parts';
import { sessionIdSchema } from '../schemas/session.schemas';
import { z } from '../schemas/zod-openapi';

const params = z.object({ session_id: sessionIdSchema });
const query = z.object({
  locale: z
    .enum(['en', 'fr'])
    .optional()
    .openapi({ description: "The page's language (default: the session's locale)." }),
});

/** The applicant-facing pages as the OpenAPI document declares them (hosted.routes.ts serves them). */
export function registerHostedPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    operationId: 'openVerificationPage',
    method: 'get',
    path: '/v/{session_id}',
    summary: 'Hosted verification page (HTML; shows a QR code on desktop)',
    security: PUBLIC,
    request: { params, query },
    responses: { 200: html('The page'), 404: html('Unknown session (HTML)') },
  });
  registry.registerPath({
    operationId: 'showCredentialPage',
    method: 'get',
    path: '/c/{session_id}',
    summary: 'Public credential page (HTML)',
    security: PUBLIC,
    request: { params, query },
    responses: { 200: html('The page'), 404: html('Unknown or not verified (HTML)') },
  });
}
