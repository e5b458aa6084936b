import { ChallengeStep } from '../capture/challenge';
import { AntispoofRun, DocumentRead, FaceMatchRun, LivenessRun } from '../checks/check-results';

/**
 * The four checks as the capture and decision use cases need them. Implemented over gRPC by
 * the inference repository; unit tests stub it. Failures the service causes reject
 * with InferenceUnavailableError, inputs it refuses with InferenceInputRejectedError.
 */
export interface InferenceChecks {
  readDocument(image: Buffer, now: Date): Promise<DocumentRead>;
  /** With the selfie, the check also asks that it shows the person who performed the challenge. */
  checkLiveness(frames: Buffer[], challenge: ChallengeStep[], selfie?: Buffer): Promise<LivenessRun>;
  /** With the liveness frames, several of them are scored for presentation attacks as well. */
  checkAntispoof(selfie: Buffer, frames?: Buffer[]): Promise<AntispoofRun>;
  matchFaces(documentPortrait: Buffer, selfie: Buffer): Promise<FaceMatchRun>;
}
