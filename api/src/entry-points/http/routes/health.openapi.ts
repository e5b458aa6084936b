import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { json, PUBLIC } from '../openapi/operation-parts';
import { z } from '../schemas/zod-openapi';

const health = z.object({ status: z.literal('ok') }).openapi('Health');
const readiness = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    shutting_down: z.boolean(),
    checks: z
      .record(z.string(), z.object({ ok: z.boolean(), error: z.string().optional() }))
      .openapi({ description: 'Each dependency by name.' }),
  })
  .openapi('Readiness');

/** /healthz and /readyz as the OpenAPI document declares them (health.routes.ts serves them). */
export function registerHealthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    operationId: 'getHealth',
    method: 'get',
    path: '/healthz',
    summary: 'Process is alive',
    security: PUBLIC,
    responses: { 200: json(health, 'Alive') },
  });
  registry.registerPath({
    operationId: 'getReadiness',
    method: 'get',
    path: '/readyz',
    summary: 'Store, queue and inference reachable',
    security: PUBLIC,
    responses: {
      200: json(readiness, 'Ready'),
      503: json(readiness, 'Not ready (a dependency is down, or the process is shutting down)'),
    },
  });
}
