/**
 * The four task modules, loaded on the first verification call rather than at start-up: processes
 * and tests that only use ModelService never load the tasks' own dependencies (the document
 * task's `mrz` package is ESM-only, which jest's CommonJS runtime cannot load without a transform).
 */
import type { AntispoofCheck, DocumentCheck, FaceMatchCheck, LivenessCheck } from '../tasks/task-contracts';

export interface TaskModules {
  verifyDocument: DocumentCheck;
  checkLiveness: LivenessCheck;
  checkAntispoof: AntispoofCheck;
  matchFaces: FaceMatchCheck;
}

let loaded: TaskModules | undefined;

export function taskModules(): TaskModules {
  loaded ??= {
    verifyDocument: (require('../tasks/document/verify-document') as typeof import('../tasks/document/verify-document')).verifyDocument,
    checkLiveness: (require('../tasks/liveness/check-liveness') as typeof import('../tasks/liveness/check-liveness')).checkLiveness,
    checkAntispoof: (require('../tasks/antispoof/check-antispoof') as typeof import('../tasks/antispoof/check-antispoof')).checkAntispoof,
    matchFaces: (require('../tasks/face-match/match-faces') as typeof import('../tasks/face-match/match-faces')).matchFaces,
  };
  return loaded;
}
