/**
 * Checks an HTTP response against the OpenAPI document the API serves, so that a test which
 * reaches the API through the shared helpers also proves the document describes what came back:
 * the operation (method and path) is documented, the status is one of its responses, and a JSON
 * body matches that response's schema (JSON Schema 2020-12, as OpenAPI 3.1 uses).
 */
import Ajv2020 from '@redocly/ajv/dist/2020';
import type { ValidateFunction } from '@redocly/ajv/dist/2020';
import { buildOpenApiDocument } from '../../api/src/entry-points/http/openapi/openapi-document';

interface Operation {
  path: string;
  pattern: RegExp;
  literalSegments: number;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** The formats the document uses; `binary` only describes request bodies. */
const FORMATS = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/,
  binary: true as const,
};

let compiled: {
  operations: Map<string, Operation[]>;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
} | null = null;

function load() {
  if (compiled) return compiled;
  const document = buildOpenApiDocument('http://localhost') as unknown as {
    paths: Record<string, Record<string, Omit<Operation, 'path' | 'pattern' | 'literalSegments'>>>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true, formats: FORMATS });
  ajv.addSchema(document, 'openapi.json');
  const operations = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
      const entry = {
        path,
        pattern,
        literalSegments: path.split('/').filter((s) => s && !s.startsWith('{')).length,
        responses: operation.responses,
      };
      operations.set(method, [...(operations.get(method) ?? []), entry]);
    }
  }
  compiled = { operations, ajv, validators: new Map() };
  return compiled;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The documented operation a request path reaches; a concrete path wins over a templated one, as in OpenAPI. */
function operationFor(method: string, urlPath: string): Operation | null {
  const candidates = (load().operations.get(method.toLowerCase()) ?? []).filter((op) => op.pattern.test(urlPath));
  return candidates.sort((a, b) => b.literalSegments - a.literalSegments)[0] ?? null;
}

function validatorFor(ref: string): ValidateFunction {
  const { ajv, validators } = load();
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

export interface ObservedResponse {
  method: string;
  /** The request URL, or only its path. */
  url: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body, when the body was JSON. */
  json: unknown;
}

/** Where the response departs from the document, or null when it conforms (or is outside the API: docs, assets, metrics). */
export function documentMismatch(response: ObservedResponse): string | null {
  const method = response.method.toUpperCase();
  if (method === 'OPTIONS' || method === 'HEAD') return null; // CORS preflights and HEAD are answered by Express itself
  const urlPath = new URL(response.url, 'http://localhost').pathname;
  const where = `${method} ${urlPath} → ${response.status}`;
  const operation = operationFor(method, urlPath);
  const isJson = (response.contentType ?? '').startsWith('application/json');
  if (!operation) {
    if (!urlPath.startsWith('/v1/')) return null;
    // The catch-all for unknown endpoints: still the contract's error shape.
    if (response.status === 404 && isJson) return schemaMismatch(where, '#/components/schemas/Error', response.json);
    return `${where}: no operation in the OpenAPI document for ${method} ${urlPath}`;
  }
  const declared = operation.responses[String(response.status)];
  if (!declared)
    return `${where}: ${operation.path} does not document status ${response.status} (documents ${Object.keys(operation.responses).join(', ')})`;
  const mediaTypes = Object.keys(declared.content ?? {});
  if (mediaTypes.length === 0) return null;
  const mediaType = (response.contentType ?? '').split(';')[0].trim();
  if (!mediaTypes.includes(mediaType))
    return `${where}: content type ${mediaType || '(none)'} is not one of ${mediaTypes.join(', ')}`;
  if (mediaType !== 'application/json') return null;
  return schemaMismatch(
    where,
    `openapi.json#/${pointer('paths', operation.path, method.toLowerCase(), 'responses', String(response.status), 'content', 'application/json', 'schema')}`,
    response.json,
  );
}

function schemaMismatch(where: string, ref: string, body: unknown): string | null {
  const validate = validatorFor(ref.startsWith('#') ? `openapi.json${ref}` : ref);
  if (validate(body)) return null;
  const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
  return `${where}: the body does not match the documented schema: ${problems.join('; ')}\nbody: ${JSON.stringify(body).slice(0, 600)}`;
}

/** Throws when the response departs from the document (see documentMismatch). */
export function assertMatchesDocument(response: ObservedResponse): void {
  const mismatch = documentMismatch(response);
  if (mismatch) throw new Error(`response does not conform to the OpenAPI document: ${mismatch}`);
}
