/** Task outputs (task-contracts.ts) -> VerificationService messages; absent values stay unset. */
import {
  ChallengeStep,
  Comparison,
  PacedStepKind,
  Verdict,
  type CheckOutcome as ProtoOutcome,
  type FrameObservation,
  type PacedStep,
  type VerifyDocumentResponse,
} from '../../../proto/gen/bioverify/inference/v1/verification_service';
import { InferenceError } from '../runtime/inference-error';
import type {
  ChallengeStep as Step,
  CheckOutcome,
  DocumentCheckOutput,
  FrameObservationOutput,
  PacedStepInput,
} from '../tasks/task-contracts';

const steps: Record<Step, ChallengeStep> = {
  TURN_LEFT: ChallengeStep.CHALLENGE_STEP_TURN_LEFT,
  TURN_RIGHT: ChallengeStep.CHALLENGE_STEP_TURN_RIGHT,
  BLINK: ChallengeStep.CHALLENGE_STEP_BLINK,
  LOOK_UP: ChallengeStep.CHALLENGE_STEP_LOOK_UP,
  LOOK_DOWN: ChallengeStep.CHALLENGE_STEP_LOOK_DOWN,
};
const stepNames = new Map<ChallengeStep, Step>(Object.entries(steps).map(([name, value]) => [value, name as Step]));

export const toProtoStep = (step: Step | null): ChallengeStep =>
  step ? steps[step] : ChallengeStep.CHALLENGE_STEP_UNSPECIFIED;
export const fromProtoStep = (step: ChallengeStep): Step | undefined => stepNames.get(step);

export const toProtoObservation = (f: FrameObservationOutput): FrameObservation => ({
  yaw: f.yaw,
  pitch: f.pitch,
  eyeOpenness: f.eye_openness,
  faceFound: f.face_found,
  mouthOpenness: f.mouth_openness,
});

const pacedKinds = new Map<PacedStepKind, PacedStepInput['kind']>([
  [PacedStepKind.PACED_STEP_KIND_HOLD_POSE, 'HOLD_POSE'],
  [PacedStepKind.PACED_STEP_KIND_OPEN_MOUTH, 'OPEN_MOUTH'],
]);

/** The paced steps, each with a known kind and a frame range inside the request's frames. */
export function fromProtoPaced(steps: PacedStep[], frameCount: number): PacedStepInput[] {
  return steps.map((step, i) => {
    const kind = pacedKinds.get(step.kind);
    const inRange = step.firstFrame >= 0 && step.frameCount >= 0 && step.firstFrame + step.frameCount <= frameCount;
    if (!kind || !inRange || step.timestampsMs.length !== step.frameCount)
      throw new InferenceError('INVALID_ARGUMENT', `paced step ${i}: unknown kind, or frames out of range`);
    return {
      kind,
      target: { yaw: step.targetYaw, pitch: step.targetPitch },
      tolerance_deg: step.toleranceDeg,
      hold_ms: step.holdMs,
      deadline_ms: step.deadlineMs,
      first_frame: step.firstFrame,
      frame_count: step.frameCount,
      timestamps_ms: step.timestampsMs,
    };
  });
}

export function toProtoOutcome(outcome: CheckOutcome): ProtoOutcome {
  return {
    verdict: outcome.verdict === 'PASS' ? Verdict.VERDICT_PASS : Verdict.VERDICT_FAIL,
    reason: outcome.reason ?? '',
    detail: outcome.detail,
    scores: outcome.scores.map((s) => ({
      ...s,
      comparison: s.comparison === 'gte' ? Comparison.COMPARISON_GTE : Comparison.COMPARISON_LTE,
    })),
    // Filled by the service handler from the models the task actually ran.
    models: [],
  };
}

export function toProtoDocument(out: DocumentCheckOutput): VerifyDocumentResponse {
  const { person, mrz } = out;
  return {
    outcome: toProtoOutcome(out),
    mrz: mrz
      ? {
          format: mrz.format,
          documentCode: mrz.document_code,
          issuingState: mrz.issuing_state,
          documentNumber: mrz.document_number,
          surname: mrz.surname,
          givenNames: mrz.given_names,
          nationality: mrz.nationality,
          birthDate: mrz.birth_date,
          sex: mrz.sex,
          expiryDate: mrz.expiry_date,
          checkDigitsValid: mrz.check_digits_valid,
          corrections: mrz.corrections,
        }
      : undefined,
    rawMrzLines: out.raw_mrz_lines,
    person: person
      ? {
          name: person.name,
          dob: person.dob,
          documentType: person.document_type,
          documentCountry: person.document_country,
          documentNumber: person.document_number,
          expiryDate: person.expiry_date,
          sex: person.sex,
          addressIsBestEffort: person.address_is_best_effort,
          address: person.address
            ? Object.fromEntries(
                Object.entries({
                  line1: person.address.line1,
                  line2: person.address.line2,
                  city: person.address.city,
                  region: person.address.region,
                  postalCode: person.address.postal_code,
                  country: person.address.country,
                }).filter(([, v]) => v !== null),
              )
            : undefined,
        }
      : undefined,
    portraitBox: out.portrait_box ?? undefined,
    portraitJpeg: Buffer.from(out.portrait_jpeg ?? new Uint8Array(0)),
  };
}
