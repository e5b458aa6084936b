/**
 * VerificationService: the four checks, each run by its task module against the service's own
 * batching runner, so concurrent verifications share batches with each other and with ModelInfer
 * callers. Uploads are proven decodable first; the call's deadline bounds every model request.
 */
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import type {
  CheckOutcome as ProtoOutcome,
  ModelRef,
  CheckAntispoofRequest,
  CheckAntispoofResponse,
  CheckLivenessRequest,
  CheckLivenessResponse,
  MatchFacesRequest,
  MatchFacesResponse,
  VerificationServiceServer,
  VerifyDocumentRequest,
  VerifyDocumentResponse,
} from '../../../proto/gen/bioverify/inference/v1/verification_service';
import { assertDecodable } from '../images/assert-decodable';
import { InferenceError } from '../runtime/inference-error';
import type { ModelRunner } from '../runtime/model-runner';
import type { ModelHost } from '../serving/model-host';
import type { RowResultCache } from '../serving/row-result-cache';
import type { ImageMemo } from '../runtime/image-memo';
import { DOCUMENT_TYPES, type ChallengeStep, type DocumentType } from '../tasks/task-contracts';
import { toServiceError } from './grpc-errors';
import { deadlineMsOf } from './model-service-handlers';
import { taskModules } from './task-modules';
import {
  fromProtoPaced,
  fromProtoStep,
  toProtoDocument,
  toProtoObservation,
  toProtoOutcome,
  toProtoStep,
} from './verification-mapping';

function declaredTypeOf(declared: string): DocumentType | undefined {
  if (declared === '') return undefined;
  if ((DOCUMENT_TYPES as readonly string[]).includes(declared)) return declared as DocumentType;
  throw new InferenceError(
    'INVALID_ARGUMENT',
    `declared_document_type must be empty or one of ${DOCUMENT_TYPES.join(', ')}, got "${declared.slice(0, 40)}"`,
  );
}

/** The capture API takes 8 to 60 frames (contract); more is a client bug or an attempt to exhaust the service. */
export const MAX_LIVENESS_FRAMES = 60;

type Call<Req, Res> = ServerUnaryCall<Req, Res>;

/**
 * Each check's latency budget. Its model requests rank by the call's arrival plus its budget
 * (earliest deadline first), so a document read overtakes face work that arrived up to 500 ms
 * before it, and otherwise the calls that came first finish first. The document read answers the
 * applicant at upload (p99 target 1.5 s); the face checks answer the liveness upload and the
 * selfie, whose target is 2 s from the selfie sent to the decision.
 */
export const CHECK_BUDGET_MS = { document: 1_500, face: 2_000 } as const;

/**
 * Runs one check. The runner records every model the task calls, and the answer's outcome names
 * them with the served version and sha256, so the evidence report can say exactly what decided
 * without each task having to remember it.
 */
function checker(
  current: () => ModelHost | undefined,
  cache: RowResultCache | undefined,
  memo: ImageMemo | undefined,
  budgetMs: number,
) {
  return <Req, Res extends { outcome?: ProtoOutcome }>(handler: (request: Req, runner: ModelRunner) => Promise<Res>) =>
    (call: Call<Req, Res>, callback: sendUnaryData<Res>): void => {
      const host = current();
      if (!host) return callback(toServiceError(new InferenceError('UNAVAILABLE', 'models are still loading')), null);
      const deadlineMs = deadlineMsOf(call);
      const rank = performance.now() + budgetMs;
      const used = new Set<string>();
      const served: ModelRunner = {
        infer: (model, inputs, options) =>
          host.infer(model, inputs, {
            deadlineMs: options?.deadlineMs ?? deadlineMs,
            cancelled: () => call.cancelled,
            rank,
          }),
        config: (model) => host.config(model),
      };
      const cached = cache ? cache.wrap(served) : served;
      // A model answered from the cache still decided this check, so it is named like one that ran.
      const runner: ModelRunner = {
        infer: (model, inputs, options) => {
          used.add(model);
          return cached.infer(model, inputs, options);
        },
        config: (model) => host.config(model),
        memo,
      };
      handler(call.request, runner).then(
        (response) => {
          if (response.outcome) response.outcome.models = modelRefs(host, used);
          callback(null, response);
        },
        (error: unknown) => callback(toServiceError(error), null),
      );
    };
}

function modelRefs(host: ModelHost, names: Set<string>): ModelRef[] {
  return [...names].map((name) => {
    const config = host.config(name);
    return { name: config.name, version: config.version, sha256: config.sha256 };
  });
}

/**
 * Proves a face upload decodable before its check runs. With the image memo the proof is the very
 * decode the check then takes from the memo (the same function, limits and error), so the upload is
 * decoded once rather than twice (a small decode to prove it, the full one in the check); the
 * frames sent again with the selfie are proven by the decode remembered from their first call.
 */
async function proveFaceUpload(runner: ModelRunner, bytes: Uint8Array, what: string): Promise<void> {
  if (!runner.memo) return assertDecodable(bytes, what);
  await (await taskModules()).decodeUpload(runner, bytes, what);
}

/**
 * `cache`, when given, answers rows the checks already sent through a model (see row-result-cache.ts);
 * `memo`, uploads already decoded and analysed (see serving/remembered-images.ts).
 */
export function verificationServiceHandlers(
  current: () => ModelHost | undefined,
  cache?: RowResultCache,
  memo?: ImageMemo,
): VerificationServiceServer {
  const documentCheck = checker(current, cache, memo, CHECK_BUDGET_MS.document);
  const faceCheck = checker(current, cache, memo, CHECK_BUDGET_MS.face);
  return {
    verifyDocument: documentCheck<VerifyDocumentRequest, VerifyDocumentResponse>(async (req, runner) => {
      // No proof first: the check's first step is the document's one full decode, with the same error.
      const declaredType = declaredTypeOf(req.declaredDocumentType);
      return toProtoDocument(
        await (await taskModules()).verifyDocument(runner, { image: req.image, now: req.now, declaredType }),
      );
    }),

    checkLiveness: faceCheck<CheckLivenessRequest, CheckLivenessResponse>(async (req, runner) => {
      if (req.frames.length === 0 || req.frames.length > MAX_LIVENESS_FRAMES) {
        throw new InferenceError(
          'INVALID_ARGUMENT',
          `liveness takes 1 to ${MAX_LIVENESS_FRAMES} frames, got ${req.frames.length}`,
        );
      }
      await Promise.all(req.frames.map((frame, i) => proveFaceUpload(runner, frame, `frame ${i}`)));
      if (req.observeOnly) {
        const observed = await (await taskModules()).observeFrames(runner, req.frames);
        return { outcome: undefined, failedStep: toProtoStep(null), perFrame: observed.map(toProtoObservation) };
      }
      const challenge = req.challenge.map((step) => fromProtoStep(step));
      const paced = fromProtoPaced(req.pacedSteps, req.frames.length);
      if ((challenge.length === 0 && paced.length === 0) || challenge.some((s) => s === undefined))
        throw new InferenceError('INVALID_ARGUMENT', 'challenge needs at least one known step');
      const selfie = req.selfie?.length ? req.selfie : undefined;
      if (selfie) await proveFaceUpload(runner, selfie, 'selfie');
      const out = await (
        await taskModules()
      ).checkLiveness(runner, {
        frames: req.frames,
        challenge: challenge as ChallengeStep[],
        ...(paced.length ? { paced } : {}),
        ...(selfie ? { selfie } : {}),
      });
      return {
        outcome: toProtoOutcome(out),
        failedStep: toProtoStep(out.failed_step),
        perFrame: out.per_frame.map(toProtoObservation),
      };
    }),

    checkAntispoof: faceCheck<CheckAntispoofRequest, CheckAntispoofResponse>(async (req, runner) => {
      if (req.frames.length > MAX_LIVENESS_FRAMES)
        throw new InferenceError(
          'INVALID_ARGUMENT',
          `antispoof takes at most ${MAX_LIVENESS_FRAMES} frames, got ${req.frames.length}`,
        );
      await Promise.all([
        proveFaceUpload(runner, req.selfie, 'selfie'),
        ...req.frames.map((frame, i) => proveFaceUpload(runner, frame, `frame ${i}`)),
      ]);
      const out = await (await taskModules()).checkAntispoof(runner, { selfie: req.selfie, frames: req.frames });
      return { outcome: toProtoOutcome(out), retakeReason: out.retake_reason ?? '' };
    }),

    matchFaces: faceCheck<MatchFacesRequest, MatchFacesResponse>(async (req, runner) => {
      await Promise.all([
        proveFaceUpload(runner, req.documentPortrait, 'document portrait'),
        proveFaceUpload(runner, req.selfie, 'selfie'),
      ]);
      const out = await (
        await taskModules()
      ).matchFaces(runner, {
        document_portrait: req.documentPortrait,
        selfie: req.selfie,
      });
      return {
        outcome: toProtoOutcome(out),
        ...(out.similarity === null ? {} : { similarity: out.similarity }),
        selfieEmbedding: out.selfie_embedding ? Array.from(out.selfie_embedding) : [],
        embeddingModel: out.embedding_model ?? undefined,
      };
    }),
  };
}
