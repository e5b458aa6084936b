import { CaptureBlobRepository } from '../../../data-access/capture-blob.repository';
import { CaptureStateRepository } from '../../../data-access/capture-state.repository';
import { CaptureWriteLimiter } from '../../../data-access/capture-write-limiter';
import { SessionRepository } from '../../../data-access/session.repository';
import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { TextSealer } from '../../../shared/sealer';
import { DecisionQueue } from '../../ports/decision-queue';
import { InferenceChecks } from '../../ports/inference-checks';

/** What the capture use cases need; built once in compose-app.ts. */
export interface CaptureDeps {
  sessions: SessionRepository;
  states: CaptureStateRepository;
  blobs: CaptureBlobRepository;
  /** Seals the document reads (personal data) kept between upload and decision. */
  sealer: TextSealer;
  writes: CaptureWriteLimiter;
  /** Null when the deployment runs without an inference service: uploads answer 503. */
  inference: InferenceChecks | null;
  queue: Pick<DecisionQueue, 'enqueueDecision'>;
  clock: Clock;
  logger: Logger;
  publicBaseUrl: string;
  /** CAPTURE_RETENTION_HOURS (see end-capture.ts). */
  retentionHours?: number;
}
