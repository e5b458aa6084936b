/**
 * The typed client the API (and the benchmark) use to talk to the inference service: health,
 * model-level calls and the four checks. Every call sets a deadline; failures reject with grpc-js
 * ServiceErrors whose `code` is the gRPC status.
 */
import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  type CallOptions,
  type Client,
  type ServiceError,
} from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import {
  ModelServiceClient,
  type ModelInferRequest,
  type ModelInferResponse,
  type ModelMetadataResponse,
  type ModelStatisticsResponse,
  type RepositoryIndexResponse,
} from '../../../proto/gen/bioverify/inference/v1/model_service';
import {
  VerificationServiceClient,
  type CheckAntispoofResponse,
  type CheckLivenessRequest,
  type CheckLivenessResponse,
  type MatchFacesResponse,
  type VerifyDocumentRequest,
  type VerifyDocumentResponse,
} from '../../../proto/gen/bioverify/inference/v1/verification_service';
import { clientChannelOptions } from './channel-options';
import { DEFAULT_DEADLINES_MS, deadlineIn } from './call-deadline';

export interface InferenceClientOptions {
  /** host:port of the inference service. */
  address: string;
  deadlines?: Partial<typeof DEFAULT_DEADLINES_MS>;
}

export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

type Callback<T> = (error: ServiceError | null, response: T) => void;

function call<T>(
  invoke: (metadata: Metadata, options: CallOptions, callback: Callback<T>) => unknown,
  timeoutMs: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    invoke(new Metadata(), { deadline: deadlineIn(timeoutMs) }, (error, response) =>
      error ? reject(error) : resolve(response),
    );
  });
}

const HealthClient = makeGenericClientConstructor(healthService, 'grpc.health.v1.Health');
type HealthCheck = {
  check(
    req: { service: string },
    metadata: Metadata,
    options: CallOptions,
    cb: Callback<{ status: ServingStatus }>,
  ): void;
};

export function createInferenceClient(options: InferenceClientOptions) {
  const deadlines = { ...DEFAULT_DEADLINES_MS, ...options.deadlines };
  const models = new ModelServiceClient(options.address, credentials.createInsecure(), clientChannelOptions);
  const health = new HealthClient(
    options.address,
    credentials.createInsecure(),
    clientChannelOptions,
  ) as unknown as Client & HealthCheck;
  const checks = new VerificationServiceClient(options.address, credentials.createInsecure(), clientChannelOptions);
  return {
    /** grpc.health.v1 Check; '' is the whole service. */
    health: (service = '', timeoutMs = deadlines.control) =>
      call<{ status: ServingStatus }>((m, o, cb) => health.check({ service }, m, o, cb), timeoutMs).then(
        (r) => r.status,
      ),
    modelReady: (name: string, version = '', timeoutMs = deadlines.control) =>
      call<{ ready: boolean }>((m, o, cb) => models.modelReady({ name, version }, m, o, cb), timeoutMs).then(
        (r) => r.ready,
      ),
    modelMetadata: (name: string, version = '', timeoutMs = deadlines.control) =>
      call<ModelMetadataResponse>((m, o, cb) => models.modelMetadata({ name, version }, m, o, cb), timeoutMs),
    modelInfer: (
      request: Partial<ModelInferRequest> & Pick<ModelInferRequest, 'modelName' | 'inputs'>,
      timeoutMs = deadlines.infer,
    ) =>
      call<ModelInferResponse>(
        (m, o, cb) => models.modelInfer({ modelVersion: '', id: '', outputs: [], ...request }, m, o, cb),
        timeoutMs,
      ),
    modelStatistics: (name = '', timeoutMs = deadlines.control) =>
      call<ModelStatisticsResponse>((m, o, cb) => models.modelStatistics({ name, version: '' }, m, o, cb), timeoutMs),
    repositoryIndex: (timeoutMs = deadlines.control) =>
      call<RepositoryIndexResponse>((m, o, cb) => models.repositoryIndex({}, m, o, cb), timeoutMs),
    /** `declaredDocumentType` defaults to unknown (''), `now` to the service's clock. */
    verifyDocument: (
      request: { image: Uint8Array } & Partial<Pick<VerifyDocumentRequest, 'now' | 'declaredDocumentType'>>,
      timeoutMs = deadlines.check,
    ) =>
      call<VerifyDocumentResponse>(
        (m, o, cb) =>
          checks.verifyDocument(
            { now: undefined, declaredDocumentType: '', ...request, image: Buffer.from(request.image) },
            m,
            o,
            cb,
          ),
        timeoutMs,
      ),
    /** `pacedSteps` and `observeOnly` default to none and false (the one-shot challenge). */
    checkLiveness: (
      request: Omit<CheckLivenessRequest, 'pacedSteps' | 'observeOnly'> &
        Partial<Pick<CheckLivenessRequest, 'pacedSteps' | 'observeOnly'>>,
      timeoutMs = deadlines.check,
    ) =>
      call<CheckLivenessResponse>(
        (m, o, cb) => checks.checkLiveness({ pacedSteps: [], observeOnly: false, ...request }, m, o, cb),
        timeoutMs,
      ),
    checkAntispoof: (selfie: Uint8Array, timeoutMs = deadlines.check, frames: Uint8Array[] = []) =>
      call<CheckAntispoofResponse>(
        (m, o, cb) =>
          checks.checkAntispoof({ selfie: Buffer.from(selfie), frames: frames.map((f) => Buffer.from(f)) }, m, o, cb),
        timeoutMs,
      ),
    matchFaces: (documentPortrait: Uint8Array, selfie: Uint8Array, timeoutMs = deadlines.check) =>
      call<MatchFacesResponse>(
        (m, o, cb) =>
          checks.matchFaces({ documentPortrait: Buffer.from(documentPortrait), selfie: Buffer.from(selfie) }, m, o, cb),
        timeoutMs,
      ),
    close(): void {
      models.close();
      health.close();
      checks.close();
    },
  };
}

export type InferenceClient = ReturnType<typeof createInferenceClient>;
