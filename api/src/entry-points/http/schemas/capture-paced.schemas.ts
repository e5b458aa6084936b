import {
  PACED_ATTEMPTS,
  PACED_LIMITS,
  PACED_RANGES,
  PACED_STEP_COUNT,
  PACED_STEP_KINDS,
} from '../../../domain/capture/paced-challenge';
import { sessionIdSchema } from './session.schemas';
import { z } from './zod-openapi';

export const pacedStepParams = z.object({
  session_id: sessionIdSchema,
  step_id: z.string().openapi({ description: 'The step_id its reveal answered.' }),
});

const degrees = (description: string) => z.number().openapi({ description });

export const pacedStepResponse = z
  .object({
    challenge_id: z.string().openapi({ description: 'The challenge (liveness attempt) this step belongs to.' }),
    step_id: z.string().openapi({ description: 'Opaque; names the step in its frames and complete calls.' }),
    index: z
      .number()
      .int()
      .min(0)
      .max(PACED_STEP_COUNT - 1),
    count: z
      .number()
      .int()
      .openapi({ description: `Steps in this challenge (${PACED_STEP_COUNT}).` }),
    kind: z.enum(PACED_STEP_KINDS).openapi({
      description:
        'HOLD_POSE: turn the head to `target` and hold it within `tolerance_deg` for `hold_ms`. OPEN_MOUTH: face the camera and open the mouth wide for `hold_ms`. Each challenge has exactly one OPEN_MOUTH step, never the first.',
    }),
    target: z
      .object({
        yaw: degrees(
          `Degrees; > 0 when the applicant turns to their own left (the nose moves to the right of the unmirrored camera image). |yaw| in [${PACED_RANGES.yawAbs.join(', ')}] for HOLD_POSE, 0 for OPEN_MOUTH.`,
        ),
        pitch: degrees(
          `Degrees; > 0 when the applicant looks up. In [${PACED_RANGES.pitch.join(', ')}] for HOLD_POSE, 0 for OPEN_MOUTH.`,
        ),
      })
      .openapi({ description: 'The head pose to reach. Drawn with a CSPRNG when this step was revealed.' }),
    tolerance_deg: z.number().openapi({ description: 'How close to the target counts as reached (degrees).' }),
    hold_ms: z
      .number()
      .int()
      .openapi({ description: `How long to hold, drawn in [${PACED_RANGES.holdMs.join(', ')}] ms.` }),
    revealed_at: z.string().openapi({ format: 'date-time', description: "The server's time of the reveal." }),
    deadline_at: z.string().openapi({
      format: 'date-time',
      description: "The server's deadline for the step's last chunk and its complete call.",
    }),
    deadline_ms: z.number().int().openapi({
      description:
        'The same deadline as milliseconds after the reveal: clients count it from when they received this answer, as their clock may differ from the server.',
    }),
    limits: z
      .object({
        max_frames_per_chunk: z.number().int(),
        max_frames_per_step: z.number().int(),
        max_chunks_per_step: z.number().int(),
        max_frame_age_ms: z.number().int().openapi({
          description: 'A frame must reach the server within this many ms of its timestamp (send frames as captured).',
        }),
        max_frame_gap_ms: z.number().int().openapi({
          description: 'Largest gap between consecutive frames that still counts as one continuous capture.',
        }),
      })
      .openapi({ description: 'The pacing rules (the same for every step today; read them, do not hard-code).' }),
    attempts_left: z
      .number()
      .int()
      .min(0)
      .max(PACED_ATTEMPTS - 1)
      .openapi({ description: 'Challenges that may still be started after this one.' }),
  })
  .openapi('PacedStep', {
    description:
      'One step of the server-paced challenge, drawn when revealed. Show its prompt at once, capture continuously, send the frames in chunks as they are captured, then complete it before `deadline_ms`.',
  });

export const pacedChunkForm = z.object({
  frame: z
    .array(z.string().openapi({ format: 'binary' }))
    .min(1)
    .max(PACED_LIMITS.maxFramesPerChunk)
    .openapi({
      description: `1 to ${PACED_LIMITS.maxFramesPerChunk} JPEG frames in capture order, each at most 1 MiB and 2 megapixels`,
    }),
  timestamps: z.string().openapi({
    description:
      "JSON array, one per frame: milliseconds since the client received the step's reveal, increasing within the chunk and across the step's chunks. Each must be ≤ the server's elapsed time since the reveal when the chunk arrives (+150 ms clock slack) and ≥ that elapsed time − max_frame_age_ms.",
  }),
});

export const pacedChunkResponse = z
  .object({
    step_id: z.string(),
    received: z.number().int().openapi({ description: 'Frames in this chunk.' }),
    frames_total: z.number().int().openapi({ description: 'Frames this step holds so far.' }),
    deadline_ms: z.number().int().openapi({ description: 'Milliseconds left until the step deadline.' }),
  })
  .openapi('PacedChunk', { description: 'Receipt only: no pose or liveness verdict is revealed.' });

export const pacedStepDoneResponse = z
  .object({
    step_id: z.string(),
    frames_total: z.number().int(),
    face_found_ratio: z.number().min(0).max(1).openapi({
      description: "Share of this step's frames with exactly one face (a quality gate, not a verdict).",
    }),
    next: z.enum(['step', 'selfie', 'restart']).openapi({
      description:
        'step: reveal the next step now. selfie: the challenge is captured; take the selfie. restart: this challenge cannot go on (under 80% of the step frames with one face, or its deadline passed); reveal again to start a new challenge (attempts_left > 0). When no attempt is left, capture goes on to the selfie and the decision carries the liveness reason.',
    }),
    attempts_left: z.number().int().min(0),
  })
  .openapi('PacedStepDone', {
    description: 'A quality gate only; the liveness verdict is never revealed before the decision.',
  });
