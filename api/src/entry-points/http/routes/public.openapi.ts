import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import countries from 'i18n-iso-countries';
import { API_KEY, json, keyed, keyedErrors, PUBLIC, publicErrors } from '../openapi/operation-parts';
import { credentialSchema, priceSchema } from '../schemas/result.schemas';
import { z } from '../schemas/zod-openapi';

export const credentialTokenParam = z.object({
  token: z.string().min(1).openapi({
    description: 'The credential_token of a VERIFIED result.',
    example: 'cred_9XkLq2mN4pR7sT1vW3yZ5aB8cD0eF6gH',
  }),
});
const ALPHA2_CODES = Object.keys(countries.getAlpha2Codes()).sort() as [string, ...string[]];
export const pricingCountryParam = z.object({
  country: z.enum(ALPHA2_CODES).openapi({
    description: 'ISO 3166-1 alpha-2 (lower case is accepted too; anything else: 422). A real code with no price: 404.',
    example: 'FR',
  }),
});

/** /v1/credentials and /v1/pricing as the OpenAPI document declares them (public.routes.ts serves them). */
export function registerPublicPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    operationId: 'checkCredential',
    method: 'get',
    path: '/v1/credentials/{token}',
    security: PUBLIC,
    summary: 'Public: check a verified credential (exposes name and document)',
    description:
      'Needs no key and answers any origin (`Access-Control-Allow-Origin: *`): whoever holds the token sees the name and the document.',
    request: { params: credentialTokenParam },
    responses: { 200: json(credentialSchema, 'The credential'), ...publicErrors(404) },
  });
  registry.registerPath({
    operationId: 'getPrice',
    method: 'get',
    path: '/v1/pricing/{country}',
    summary: 'Price per verification in a country',
    security: API_KEY,
    request: { params: pricingCountryParam },
    responses: { 200: keyed(json(priceSchema, 'The price')), ...keyedErrors(401, 404, 422) },
  });
}
