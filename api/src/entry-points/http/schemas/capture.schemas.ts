import { CHALLENGE_STEPS } from '../../../domain/capture/challenge';
import { SESSION_STATUSES } from '../../../domain/session-status';
import { PROGRESS_STEPS } from '../../../domain/usecases/capture/capture-progress.usecase';
import { documentTypeSchema as documentType } from './result.schemas';
import { sessionIdSchema } from './session.schemas';
import { z } from './zod-openapi';
import { integrityReportEvidence } from './capture-integrity.schemas';

const stepState = z.enum(['missing', 'retake', 'captured', 'not_required']);

export const startCaptureResponse = z
  .object({
    capture_token: z.string().openapi({
      description:
        'Opaque (≥ 128 bits, stored hashed); send it as `Authorization: Bearer <token>` on every later capture call.',
    }),
    challenge: z.array(z.enum(CHALLENGE_STEPS)).max(3).openapi({
      description:
        'one_shot: three distinct liveness steps drawn with a CSPRNG (or pinned by `sandbox.liveness_challenge`). paced: empty, as each step is revealed only when asked for (`POST /v1/capture/{session_id}/liveness/steps`).',
    }),
    liveness_mode: z.enum(['paced', 'one_shot']).openapi({
      description:
        'paced for production sessions: the server-paced challenge (`…/liveness/steps`), and the one-shot `POST …/liveness` answers 409. one_shot for sandbox sessions: the challenge above, uploaded at once (the paced routes work there too, for trying a client).',
    }),
    document_types: z.array(documentType),
    expires_at: z.string().openapi({ format: 'date-time' }),
    locale: z.enum(['en', 'fr']),
  })
  .openapi('CaptureStart');

export const documentSideResponse = z
  .object({
    side: z.enum(['front', 'back']),
    readable: z.boolean(),
    reason: z.enum(['DOCUMENT_UNREADABLE', 'DOCUMENT_INVALID', 'DOCUMENT_EXPIRED']).nullable(),
    retake: z.boolean(),
    attempts_left: z.number().int().min(0).max(2),
    next: z.enum(['back', 'liveness']).nullable(),
  })
  .openapi('CaptureDocumentSide', {
    description:
      "The read made at once; never the person's data. 3 attempts a side; after the last, capture goes on and the decision carries the reason.",
  });

export const livenessResponse = z
  .object({
    received: z.number().int(),
    face_found_ratio: z.number().min(0).max(1),
    retake: z.boolean(),
    attempts_left: z.number().int(),
  })
  .openapi('CaptureLiveness', {
    description:
      'A quality gate only (retake below 80% of frames with exactly one face); the liveness verdict is never revealed before the decision.',
  });

export const selfieResponse = z
  .object({
    face_found: z.boolean(),
    retake: z.boolean(),
    reason: z.enum(['FACE_NOT_DETECTED', 'FACE_TOO_CLOSE']).nullable().openapi({
      description:
        'Why a retake is asked for: no face, or the face fills the frame (move back) and no liveness frames were received yet to judge the capture instead (once they are, a close selfie is kept and not retaken). Null when no retake is asked for. Never an antispoof verdict.',
    }),
    attempts_left: z.number().int(),
  })
  .openapi('CaptureSelfie');

export const submitResponse = z
  .object({ status: z.literal('IN_PROGRESS'), decision: z.literal('pending') })
  .openapi('CaptureSubmitted');

export const captureStatusResponse = z
  .object({
    status: z.enum(SESSION_STATUSES),
    decision: z.enum(['none', 'pending', 'done']),
    redirect_url: z
      .string()
      .nullable()
      .openapi({ description: 'return_url with session_id and status appended, once decided.' }),
    steps: z
      .object({ document_front: stepState, document_back: stepState, liveness: stepState, selfie: stepState })
      .optional()
      .openapi({ description: 'Only with the capture token.' }),
  })
  .openapi('CaptureStatus');

export const captureProgressResponse = z
  .object({
    status: z.enum(SESSION_STATUSES),
    decision: z.enum(['none', 'pending', 'done']),
    redirect_url: z.string().nullable(),
    step: z.enum(PROGRESS_STEPS).openapi({
      description:
        'waiting (no device started), the step the capturing device is on (document, liveness, selfie), submit (all captured), checking (decision pending), done (decided, expired or cancelled).',
    }),
  })
  .openapi('CaptureProgress', {
    description:
      'The token-less status plus the coarse step, for the page that handed the session to a phone. No personal data, no read result, no retake.',
  });

const score = z.object({
  name: z.string(),
  value: z.number(),
  threshold: z.number(),
  comparison: z.enum(['gte', 'lte']),
});
const chipEvidence = z.object({
  issuing_state: z.string().nullable().openapi({ description: "DG1's issuing state (ICAO code); null once redacted." }),
  document_signer: z
    .object({ subject: z.string(), serial: z.string(), country: z.string() })
    .nullable()
    .openapi({ description: 'The Document Signer certificate; null when not parsed, and once redacted.' }),
  csca: z.object({ subject: z.string() }).nullable().openapi({ description: 'The trust anchor the chain ended at.' }),
  hash_algorithm: z.string().nullable(),
  signature_algorithm: z.string().nullable(),
  data_groups_verified: z.array(z.number().int()),
  active_authentication: z.enum(['PASSED', 'FAILED', 'NOT_PERFORMED', 'NOT_SUPPORTED']).openapi({
    description:
      'NOT_SUPPORTED: the chip has no DG15; NOT_PERFORMED: it has one and no answer was sent (never passed silently).',
  }),
  chip_authentication: z.enum(['CLIENT_ASSERTED', 'NOT_PRESENT']).openapi({
    description: 'The server does not run chip authentication (DG14): it reports what the reading device asserted.',
  }),
  mrz_fields_mismatched: z.array(z.string()),
});

const reportCheck = z.object({
  verdict: z.enum(['PASS', 'FAIL', 'SKIPPED', 'CLEAR', 'MATCH', 'NOT_PERFORMED']),
  reason: z.string().nullable(),
  scores: z.array(score),
  model: z.object({ name: z.string(), version: z.string(), sha256: z.string() }).nullable().openapi({
    description: 'The model version that scored the check (null for cross-checks, sanctions and simulations).',
  }),
  duration_ms: z.number(),
  match: z
    .object({ list: z.string(), entry_id: z.string(), matched_name: z.string(), score: z.number() })
    .nullable()
    .optional()
    .openapi({ description: 'Sanctions only: the closest list entry, never the whole entry.' }),
  matched_sessions: z.array(z.string()).optional().openapi({
    description:
      'known_face only: sessions of the same account whose verified face matched the selfie under another identity (ids only, at most 10; empty on PASS).',
  }),
  evidence: chipEvidence.optional().openapi({
    description:
      'document_chip only, when a chip was verified: what passive and active authentication proved, and which MRZ fields (names only) differed from the page.',
  }),
  integrity: integrityReportEvidence.optional().openapi({
    description: 'capture_integrity only: the policy, the flags raised and the signals the client sent.',
  }),
});

export const reportSchema = z
  .object({
    session_id: z.string(),
    decided_at: z.string().nullable().openapi({ format: 'date-time' }),
    checks: z.record(z.string(), reportCheck),
    document: z
      .object({
        format: z.string().nullable(),
        type: documentType,
        country: z.string().nullable(),
        corrections: z
          .array(z.object({ line: z.number(), index: z.number(), from: z.string(), to: z.string() }))
          .openapi({ description: 'MRZ characters changed by check-digit-guided OCR correction.' }),
      })
      .nullable(),
    redacted_at: z.string().optional().openapi({
      format: 'date-time',
      description:
        'Present once redacted: the scores stay; document.country and corrections, and a sanctions match, are gone.',
    }),
  })
  .openapi('EvidenceReport', {
    description:
      'Every score with its decision line, the model (name, version, sha256) behind it and timings. No images, no personal data.',
  });

export const captureParams = z.object({ session_id: sessionIdSchema });
export const documentTypeQuery = z.object({ type: documentType });

/** Base64 of at most `bytes` bytes (4 characters per 3 bytes, padded). */
const base64Of = (bytes: number, description: string) =>
  z
    .string()
    .min(4)
    .max(Math.ceil(bytes / 3) * 4)
    .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be base64')
    .openapi({ description });

/** The chip upload's bound: the files at their largest with margin (DG2 holds one portrait). */
export const CHIP_BODY_LIMIT_BYTES = 256 * 1024;

export const chipChallengeResponse = z
  .object({
    challenge: z
      .string()
      .regex(/^[A-Za-z0-9+/]{11}=$/)
      .openapi({ description: 'Base64 of 8 random bytes, single use' }),
    expires_at: z.string().openapi({ format: 'date-time', description: 'At most 5 minutes after it was drawn' }),
  })
  .openapi('ChipChallenge');

export const chipUploadRequest = z
  .strictObject({
    sod: base64Of(32 * 1024, 'EF.SOD as read, with its 0x77 tag'),
    dg1: base64Of(1024, 'EF.DG1 (the MRZ)'),
    dg2: base64Of(120 * 1024, 'EF.DG2 (the portrait), at most 120 KiB'),
    dg14: base64Of(8 * 1024, 'EF.DG14, when the chip has one').optional(),
    dg15: base64Of(8 * 1024, 'EF.DG15 (the active-authentication public key), when the chip has one').optional(),
    active_authentication: z
      .strictObject({
        challenge: base64Of(8, 'The challenge from POST …/chip/challenge'),
        signature: base64Of(1024, "The chip's answer to it"),
      })
      .optional(),
  })
  .openapi('ChipUpload');

export const chipUploadResponse = z
  .object({
    well_formed: z.literal(true),
    received: z.array(z.enum(['active_authentication', 'dg1', 'dg14', 'dg15', 'dg2', 'sod'])).openapi({
      description: 'The members received, sorted; nothing about their verification, which is the decision’s',
    }),
  })
  .openapi('ChipUploadReceipt');
