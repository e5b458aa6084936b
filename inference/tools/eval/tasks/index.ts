/**
 * The registry `npm run eval -- --task <name>` looks tasks up in. To add one, write
 * `tasks/<name>-eval.ts` exporting an EvalTask (see ../eval-task.ts) and list it here.
 */
import type { EvalTask } from '../eval-task';
import { antispoofCheckEval } from './antispoof-check-eval';
import { antispoofEval, passiveLivenessEval } from './antispoof-eval';
import { faceMatchEval } from './face-match-eval';
import { faceLineEval } from './face-line-eval';
import { livenessEval } from './liveness-eval';
import { documentEval } from './document-eval';
import { padEval } from './pad-eval';
import { padPacedEval } from './pad-paced-eval';
import { selfieRetakeEval } from './selfie-retake-eval';

export const evalTasks: Record<string, EvalTask> = {
  [faceMatchEval.name]: faceMatchEval,
  [antispoofEval.name]: antispoofEval,
  [livenessEval.name]: livenessEval,
  [passiveLivenessEval.name]: passiveLivenessEval,
  [antispoofCheckEval.name]: antispoofCheckEval,
  [documentEval.name]: documentEval,
  [faceLineEval.name]: faceLineEval,
  [padEval.name]: padEval,
  [padPacedEval.name]: padPacedEval,
  [selfieRetakeEval.name]: selfieRetakeEval,
};
