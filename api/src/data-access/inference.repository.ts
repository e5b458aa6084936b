import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { createInferenceClient, InferenceClient } from '../../../inference/src/client/inference-client';
import {
  ChallengeStep as ProtoStep,
  Comparison,
  PacedStepKind,
  Verdict,
  type CheckOutcome,
  type VerifyDocumentResponse,
} from '../../../proto/gen/bioverify/inference/v1/verification_service';
import { PacedStepSpec } from '../domain/capture/capture-state';
import { ChallengeStep } from '../domain/capture/challenge';
import {
  AntispoofRun,
  CheckRun,
  DocumentPerson,
  DocumentRead,
  FaceMatchRun,
  FrameObservation,
  InferenceInputRejectedError,
  InferenceUnavailableError,
  LivenessRun,
} from '../domain/checks/check-results';
import { InferenceChecks } from '../domain/ports/inference-checks';
import { Address, DocumentType } from '../domain/session-status';

const TO_PROTO_STEP: Record<ChallengeStep, ProtoStep> = {
  TURN_LEFT: ProtoStep.CHALLENGE_STEP_TURN_LEFT,
  TURN_RIGHT: ProtoStep.CHALLENGE_STEP_TURN_RIGHT,
  BLINK: ProtoStep.CHALLENGE_STEP_BLINK,
  LOOK_UP: ProtoStep.CHALLENGE_STEP_LOOK_UP,
  LOOK_DOWN: ProtoStep.CHALLENGE_STEP_LOOK_DOWN,
};
const FROM_PROTO_STEP = new Map<ProtoStep, ChallengeStep>(
  Object.entries(TO_PROTO_STEP).map(([k, v]) => [v, k as ChallengeStep]),
);

/** gRPC codes that mean "the service, not the input": the caller waits and retries. */
const RETRYABLE = new Set<number>([
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.RESOURCE_EXHAUSTED,
  GrpcStatus.CANCELLED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNKNOWN,
]);

/**
 * The API's one door to the inference service (gRPC, a deadline on every call). The generated
 * ts-proto types stop here: every answer is mapped to the domain's check results.
 */
export class InferenceRepository implements InferenceChecks {
  private readonly client: InferenceClient;

  constructor(address: string) {
    this.client = createInferenceClient({ address });
  }

  /** Ready means SERVING on grpc.health.v1, which the service reports only after every model warmed up. */
  async checkReady(): Promise<void> {
    const status = await this.client.health('', 2_000);
    if (status !== 'SERVING') throw new Error(`inference health is ${status}`);
  }

  async readDocument(image: Buffer, now: Date, declaredType?: DocumentType): Promise<DocumentRead> {
    const { value, ms } = await timed(() =>
      this.client.verifyDocument({ image, now, declaredDocumentType: declaredType ?? '' }),
    );
    return {
      ...toRun(value.outcome, ms),
      format: value.mrz?.format || null,
      person: toPerson(value),
      corrections: value.mrz?.corrections ?? [],
      portrait: value.portraitJpeg.length > 0 ? Buffer.from(value.portraitJpeg) : null,
    };
  }

  async checkLiveness(
    frames: Buffer[],
    challenge: ChallengeStep[],
    selfie?: Buffer,
    paced?: PacedStepSpec[] | null,
  ): Promise<LivenessRun> {
    const request = {
      frames,
      challenge: challenge.map((s) => TO_PROTO_STEP[s]),
      pacedSteps: (paced ?? []).map((step) => ({
        kind:
          step.kind === 'OPEN_MOUTH'
            ? PacedStepKind.PACED_STEP_KIND_OPEN_MOUTH
            : PacedStepKind.PACED_STEP_KIND_HOLD_POSE,
        targetYaw: step.target.yaw,
        targetPitch: step.target.pitch,
        toleranceDeg: step.tolerance_deg,
        holdMs: step.hold_ms,
        deadlineMs: step.deadline_ms,
        firstFrame: step.first_frame,
        frameCount: step.frame_count,
        timestampsMs: step.timestamps,
      })),
      ...(selfie ? { selfie } : {}),
    };
    const { value, ms } = await timed(() => this.client.checkLiveness(request));
    return {
      ...toRun(value.outcome, ms),
      failed_step: FROM_PROTO_STEP.get(value.failedStep) ?? null,
      face_found: value.perFrame.map((f) => f.faceFound),
    };
  }

  async observeFrames(frames: Buffer[]): Promise<FrameObservation[]> {
    const { value } = await timed(() => this.client.checkLiveness({ frames, challenge: [], observeOnly: true }));
    return value.perFrame.map((f) => ({
      face_found: f.faceFound,
      yaw: f.yaw,
      pitch: f.pitch,
      mouth_openness: f.mouthOpenness,
    }));
  }

  async checkAntispoof(selfie: Buffer, frames: Buffer[] = []): Promise<AntispoofRun> {
    const { value, ms } = await timed(() => this.client.checkAntispoof(selfie, undefined, frames));
    return {
      ...toRun(value.outcome, ms),
      retake_reason: value.retakeReason === 'FACE_TOO_CLOSE' ? 'FACE_TOO_CLOSE' : null,
    };
  }

  async matchFaces(documentPortrait: Buffer, selfie: Buffer): Promise<FaceMatchRun> {
    const { value, ms } = await timed(() => this.client.matchFaces(documentPortrait, selfie));
    const embedding = value.selfieEmbedding.length
      ? Buffer.from(Float32Array.from(value.selfieEmbedding).buffer).toString('base64')
      : null;
    const model = value.embeddingModel;
    return {
      ...toRun(value.outcome, ms),
      similarity: value.similarity ?? null,
      selfie_embedding: embedding,
      embedding_model: model ? `${model.name}@${model.version}:${model.sha256}` : null,
    };
  }

  close(): void {
    this.client.close();
  }
}

async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  try {
    const value = await call();
    return { value, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const code = (error as ServiceError).code;
    if (code === GrpcStatus.INVALID_ARGUMENT)
      throw new InferenceInputRejectedError((error as ServiceError).details ?? 'input refused');
    if (code === undefined || RETRYABLE.has(code))
      throw new InferenceUnavailableError(`inference: ${(error as Error).message}`);
    throw error;
  }
}

function toRun(outcome: CheckOutcome | undefined, ms: number): CheckRun {
  if (!outcome) throw new InferenceUnavailableError('inference answered without an outcome');
  return {
    verdict: outcome.verdict === Verdict.VERDICT_PASS ? 'PASS' : 'FAIL',
    reason: outcome.reason || null,
    scores: outcome.scores.map((s) => ({
      name: s.name,
      value: s.value,
      threshold: s.threshold,
      comparison: s.comparison === Comparison.COMPARISON_LTE ? 'lte' : 'gte',
    })),
    models: outcome.models.map((m) => ({ name: m.name, version: String(m.version), sha256: m.sha256 })),
    duration_ms: ms,
  };
}

function toPerson(response: VerifyDocumentResponse): DocumentPerson | null {
  const p = response.person;
  if (!p) return null;
  const a = p.address;
  const address: Address | null = a
    ? {
        line1: a.line1 ?? null,
        line2: a.line2 ?? null,
        city: a.city ?? null,
        region: a.region ?? null,
        postal_code: a.postalCode ?? null,
        country: a.country ?? null,
      }
    : null;
  return {
    name: p.name,
    dob: p.dob,
    document_type: p.documentType as DocumentType,
    document_country: p.documentCountry,
    document_number: p.documentNumber,
    expiry_date: p.expiryDate,
    nationality: response.mrz?.nationality ?? '',
    address,
  };
}
