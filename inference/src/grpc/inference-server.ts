/**
 * Assembles the service: gRPC (ModelService, VerificationService, health) on one port, Prometheus on another, and the
 * model host behind them. The port opens first with health NOT_SERVING, so an orchestrator can
 * tell "starting" from "down"; it turns SERVING once every model has warmed up.
 */
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { ModelServiceService } from '../../../proto/gen/bioverify/inference/v1/model_service';
import { VerificationServiceService } from '../../../proto/gen/bioverify/inference/v1/verification_service';
import type { ExecutorLayout } from '../executor/executor-protocol';
import { InferenceMetrics } from '../metrics/inference-metrics';
import { startMetricsServer } from '../metrics/metrics-server';
import type { SessionTuning } from '../runtime/execution-providers';
import { startModelHost, type ModelHost } from '../serving/model-host';
import { RowResultCache, type RowResultCacheOptions } from '../serving/row-result-cache';
import { HealthStatus } from './health-status';
import { RememberedImages, type ImageMemoOptions } from '../serving/remembered-images';
import { serverMessageOptions } from '../client/message-limits';
import { modelServiceHandlers } from './model-service-handlers';
import { verificationServiceHandlers } from './verification-service-handlers';

export interface InferenceServerOptions {
  repository: string;
  /** 0 asks the OS for a free port (tests). */
  port: number;
  host?: string;
  /** Prometheus port; 0 = any free port, null = no metrics endpoint. */
  metricsPort?: number | null;
  models?: string[];
  layout?: ExecutorLayout;
  executorProcesses?: number | 'per-model';
  dynamicBatching?: boolean;
  tuning?: SessionTuning;
  /** Model rows the verification checks remember between calls; default (and null): none. */
  rowCache?: RowResultCacheOptions | null;
  /** Uploads the checks remember decoded and analysed; default DEFAULT_IMAGE_MEMO, null: none. */
  imageMemo?: ImageMemoOptions | null;
  log?: (line: string) => void;
}

/**
 * The face models, whose rows repeat across one verification's checks, when a deployment turns the
 * row cache on (INFERENCE_ROW_CACHE_MB) with the image memo off. 64 MiB holds about 900
 * detector rows (the largest output, 61 KB), some eighty verifications' frames; ten minutes covers
 * an applicant's frames-to-selfie gap.
 */
export const DEFAULT_ROW_CACHE: RowResultCacheOptions = {
  models: ['face-detection', 'face-landmarks', 'face-embedding', 'passive-liveness'],
  maxBytes: 64 * 1024 * 1024,
  ttlMs: 10 * 60_000,
};

/**
 * A verification's uploads are about 13 images (frames and selfie) of up to 1 MB decoded each
 * (640 x 480); 128 MiB keeps about ten verifications' pixels for the minute they are in use. Of
 * the derived results a face's 468 landmarks are the largest (measured: 38 KB on the heap); an image
 * holds four or so results, so 4,000 entries are about a thousand images, some eighty
 * verifications, and at most about 150 MB.
 */
export const DEFAULT_IMAGE_MEMO: ImageMemoOptions = {
  imageBytes: 128 * 1024 * 1024,
  imageTtlMs: 60_000,
  derivedEntries: 4_000,
  derivedTtlMs: 10 * 60_000,
};

export interface RunningInferenceServer {
  port: number;
  metricsPort: number | null;
  host: ModelHost;
  metrics: InferenceMetrics;
  rowCache: RowResultCache | null;
  imageMemo: RememberedImages | null;
  stop(): Promise<void>;
}

function bind(server: Server, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    );
  });
}

/** Resolves once every model is ready; rejects (and frees the ports) if any model fails to load. */
export async function startInferenceServer(options: InferenceServerOptions): Promise<RunningInferenceServer> {
  const metrics = new InferenceMetrics();
  const health = new HealthStatus();
  let host: ModelHost | undefined;
  const server = new Server(serverMessageOptions);
  server.addService(
    ModelServiceService,
    modelServiceHandlers(() => host),
  );
  const rowCacheOptions = options.rowCache ?? null;
  const rowCache = rowCacheOptions
    ? new RowResultCache({
        count: (model, outcome, rows) => metrics.rowCacheRows.inc({ model, outcome }, rows),
        ...rowCacheOptions,
      })
    : null;
  const imageMemoOptions = options.imageMemo === undefined ? DEFAULT_IMAGE_MEMO : options.imageMemo;
  const imageMemo = imageMemoOptions
    ? new RememberedImages({
        count: (kind, outcome) => metrics.imageMemoLookups.inc({ kind, outcome }),
        ...imageMemoOptions,
      })
    : null;
  server.addService(
    VerificationServiceService,
    verificationServiceHandlers(() => host, rowCache ?? undefined, imageMemo ?? undefined),
  );
  health.addToServer(server);
  const port = await bind(server, `${options.host ?? '0.0.0.0'}:${options.port}`);
  const metricsServer =
    options.metricsPort === null
      ? undefined
      : await startMetricsServer(metrics.registry, options.metricsPort ?? 0, options.host);
  try {
    host = await startModelHost({ ...options, metrics });
  } catch (error) {
    server.forceShutdown();
    await metricsServer?.close();
    throw error;
  }
  const running = host;
  health.set(running.allReady());
  running.onReadinessChange(() => health.set(running.allReady()));
  return {
    port,
    metricsPort: metricsServer?.port ?? null,
    host: running,
    metrics,
    rowCache,
    imageMemo,
    async stop() {
      health.set(false);
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      await running.close();
      await metricsServer?.close();
    },
  };
}
