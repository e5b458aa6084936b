import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { describeRateLimits } from '../../../domain/rate-limits/plan-rate-limit';
import { registerPacedCapturePaths } from '../routes/capture-paced.openapi';
import { registerCapturePaths } from '../routes/capture.openapi';
import { registerHealthPaths } from '../routes/health.openapi';
import { registerHostedPaths } from '../routes/hosted.openapi';
import { registerPublicPaths } from '../routes/public.openapi';
import { registerSessionPaths } from '../routes/sessions.openapi';
import { registerWebhookPaths } from '../routes/webhooks.openapi';

/**
 * /docs/openapi.json: each route module registers its own operations, with the zod schemas its
 * routes validate with; this file only assembles them.
 */
export function buildOpenApiDocument(serverUrl: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'vk_sand_… (sandbox) or vk_live_… (production)',
  });
  registerSessionPaths(registry);
  registerWebhookPaths(registry);
  registerCapturePaths(registry);
  registerPacedCapturePaths(registry);
  registerPublicPaths(registry);
  registerHealthPaths(registry);
  registerHostedPaths(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Bioverify identity verification API',
      version: '1.0.0',
      description: `${DESCRIPTION}\n\n**Rate limits.** ${describeRateLimits()}`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl }],
  });
}

const DESCRIPTION = `Sandbox keys start vk_sand_, production keys vk_live_; the key alone decides the environment.

**Confidence.** Each score the checks produced is placed against its decision line:
margin = value − threshold for scores that must reach the line (gte), threshold − value for scores that must stay under it (lte);
c = clamp(0.5 + 0.5 · margin / max(|threshold|, 0.05), 0, 1), so 0.5 is the line itself, 1 is a margin as large as the line, 0 as far on the failing side; a met yes-or-no requirement (name_match, dob_match, address_postal_code_match, mrz_check_digits_passed, steps_completed) gives 1.
The session's confidence is the smallest c over every check that ran (a verification is as sure as its least sure check), so VERIFIED gives at least 0.5 and FAILED below 0.5; a failure no score explains (an unreadable document) gives 0; a cancelled session 0. A verified passport chip (document_chip PASS) lifts the page read's own scores out of the minimum, since the chip proves what they estimate.`;
