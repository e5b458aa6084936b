import { PacedStepSpec } from '../capture/capture-state';
import { ChallengeStep } from '../capture/challenge';
import { DocumentType } from '../session-status';
import { AntispoofRun, DocumentRead, FaceMatchRun, FrameObservation, LivenessRun } from '../checks/check-results';

/**
 * The four checks as the capture and decision use cases need them. Implemented over gRPC by
 * the inference repository; unit tests stub it. Failures the service causes reject
 * with InferenceUnavailableError, inputs it refuses with InferenceInputRejectedError.
 */
export interface InferenceChecks {
  /** `declaredType`, the applicant's choice, steers only where the read looks first, never the answer. */
  readDocument(image: Buffer, now: Date, declaredType?: DocumentType): Promise<DocumentRead>;
  /** With the selfie, the check also asks that it shows the person who performed the challenge. */
  /** With `paced`, the frames must follow the server-paced steps instead of `challenge` (then empty). */
  checkLiveness(
    frames: Buffer[],
    challenge: ChallengeStep[],
    selfie?: Buffer,
    paced?: PacedStepSpec[] | null,
  ): Promise<LivenessRun>;
  /** Each frame's face and pose only, no verdict: the paced challenge's upload gate. */
  observeFrames(frames: Buffer[]): Promise<FrameObservation[]>;
  /** With the liveness frames, several of them are scored for presentation attacks as well. */
  checkAntispoof(selfie: Buffer, frames?: Buffer[]): Promise<AntispoofRun>;
  matchFaces(documentPortrait: Buffer, selfie: Buffer): Promise<FaceMatchRun>;
}
