import { DOCUMENT_TYPES, FAILURE_REASONS, SESSION_STATUSES } from '../../../domain/session-status';
import { nullable } from '../openapi/operation-parts';
import { z } from './zod-openapi';

const verdict = z.enum(['PASS', 'FAIL', 'SKIPPED']);
export const documentTypeSchema = z.enum(DOCUMENT_TYPES);

export const addressSchema = z
  .object({
    line1: z.string().nullable(),
    line2: z.string().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullable()
      .openapi({ description: 'ISO 3166-1 alpha-2.' }),
  })
  .openapi('Address');

export const personSchema = z
  .object({
    name: z.string().openapi({ description: 'Given names then surname, single-spaced, as read from the document.' }),
    dob: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .openapi({ format: 'date', example: '1965-03-10' }),
    document_type: documentTypeSchema,
    document_country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .openapi({ description: 'ISO 3166-1 alpha-2 of the issuer.' }),
    document_jurisdiction: z
      .string()
      .nullable()
      .openapi({ description: 'ISO 3166-2 code when a region issued the document.' }),
    address: nullable(addressSchema).openapi({ description: 'Null when the document carries no address.' }),
  })
  .openapi('Person');

export const checksSchema = z
  .object({
    document: verdict,
    liveness: verdict,
    antispoof: verdict,
    face_match: verdict.openapi({
      description: 'Against a fixed decision line; the chip portrait is the reference when document_chip is PASS.',
    }),
    document_chip: z.enum(['PASS', 'FAIL', 'NOT_PERFORMED']).optional().openapi({
      description:
        'The passport chip (eMRTD): PASS when passive authentication (and active authentication where the chip supports it) verified and DG1 matched the page; NOT_PERFORMED when no chip was read or the session says off. Absent on sessions decided before the chip check existed.',
    }),
    sanctions: z.enum(['CLEAR', 'MATCH', 'SKIPPED']).optional().openapi({
      description:
        'Only for accounts with the watchlist add-on: CLEAR or MATCH when screened against the loaded lists, SKIPPED when no list is loaded (never CLEAR without a screening). Sandbox simulation screens its specimen person.',
    }),
  })
  .openapi('Checks');

export const resultSchema = z
  .object({
    session_id: z.string(),
    status: z.enum(SESSION_STATUSES),
    environment: z.enum(['sandbox', 'production']),
    person: nullable(personSchema).openapi({
      description: 'Null on a FAILED session whose document was not read, and once redacted.',
    }),
    checks: checksSchema,
    confidence: z.number().min(0).max(1),
    verified_until: z
      .string()
      .nullable()
      .openapi({ format: 'date-time', description: 'ISO 8601 UTC; set on VERIFIED.' }),
    failure_reason: z.enum(FAILURE_REASONS).nullable(),
    credential_token: z
      .string()
      .nullable()
      .openapi({ description: 'Set on VERIFIED; for GET /v1/credentials/{token}.' }),
    attempt: z.number().int().min(1).max(3).openapi({
      description:
        '1-based; a retry of a FAILED session decides again as the next attempt. Receivers key on session_id + attempt + status.',
    }),
    redacted_at: z.string().optional().openapi({
      format: 'date-time',
      description:
        'Present only once the personal data was erased (POST /v1/sessions/{id}/redact or the retention period): `person` and `credential_token` are then null; status, checks, confidence and metadata stay.',
    }),
    metadata: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'Exactly the bytes given at creation ({} when none).' }),
  })
  .openapi('SessionResult', {
    description: 'Returned by GET /v1/sessions/{id}/result and delivered as the webhook body.',
  });

export const credentialSchema = z
  .object({
    valid: z.boolean(),
    status: z.enum(SESSION_STATUSES),
    name: z.string(),
    document_type: documentTypeSchema,
    document_country: z.string().regex(/^[A-Z]{2}$/),
    verified_until: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Credential');

export const priceSchema = z
  .object({
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .openapi({ description: 'ISO 3166-1 alpha-2, upper case.' }),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .openapi({ description: 'ISO 4217.' }),
    unit_amount: z.number().int().min(0).openapi({ description: "In the currency's minor unit." }),
    environment: z.enum(['sandbox', 'production']),
    billed: z.boolean().openapi({ description: 'False for sandbox keys: sandbox is never billed.' }),
  })
  .openapi('Price');
