/** Task outputs (task-contracts.ts) -> VerificationService messages; absent values stay unset. */
import {
  ChallengeStep,
  Comparison,
  Verdict,
  type CheckOutcome as ProtoOutcome,
  type VerifyDocumentResponse,
} from '../../../proto/gen/bioverify/inference/v1/verification_service';
import type { ChallengeStep as Step, CheckOutcome, DocumentCheckOutput } from '../tasks/task-contracts';

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
