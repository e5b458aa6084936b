import { Clock } from '../../../shared/clock';
import { Logger } from '../../../shared/logger';
import { TextSealer } from '../../../shared/sealer';
import { ChipVerifier } from '../../ports/chip-verifier';
import { CaptureBlobStore, CaptureStateStore, CaptureWriteLimit } from '../../ports/capture-stores';
import { DecisionQueue } from '../../ports/decision-queue';
import { InferenceChecks } from '../../ports/inference-checks';
import { ApplicantSessions } from '../../ports/session-reads';
import { DecisionRequests, SessionTransitions } from '../../ports/session-transitions';

/** What the capture use cases need; built once in compose-app.ts. */
export interface CaptureDeps {
  sessions: ApplicantSessions & SessionTransitions & DecisionRequests;
  states: CaptureStateStore;
  blobs: CaptureBlobStore;
  /** Seals the document reads (personal data) kept between upload and decision. */
  sealer: TextSealer;
  writes: CaptureWriteLimit;
  /** Parses chip uploads (the decision verifies them). */
  chip: Pick<ChipVerifier, 'inspect'>;
  /** Null when the deployment runs without an inference service: uploads answer 503. */
  inference: InferenceChecks | null;
  queue: Pick<DecisionQueue, 'enqueueDecision'>;
  clock: Clock;
  logger: Logger;
  publicBaseUrl: string;
  /** CAPTURE_RETENTION_HOURS (see end-capture.ts). */
  retentionHours?: number;
}
