/**
 * The four task modules, loaded on the first verification call rather than at start-up: processes
 * and tests that only use ModelService never load the tasks' own dependencies (the document
 * task's `mrz` package is ESM-only, which jest's CommonJS runtime cannot load without a transform).
 */
import type {
  AntispoofCheck,
  DocumentCheck,
  FaceMatchCheck,
  FrameObserver,
  LivenessCheck,
} from '../tasks/task-contracts';
import type { ModelRunner } from '../runtime/model-runner';

export interface TaskModules {
  verifyDocument: DocumentCheck;
  checkLiveness: LivenessCheck;
  observeFrames: FrameObserver;
  checkAntispoof: AntispoofCheck;
  matchFaces: FaceMatchCheck;
  /** A face upload decoded as the checks decode it, through the runner's image memo. */
  decodeUpload(runner: ModelRunner, bytes: Uint8Array, what: string): Promise<unknown>;
}

let loaded: Promise<TaskModules> | undefined;

export function taskModules(): Promise<TaskModules> {
  if (loaded) return loaded;
  const load = import('../tasks').then((tasks) => ({
    verifyDocument: tasks.verifyDocument,
    checkLiveness: tasks.checkLiveness,
    observeFrames: tasks.observeFrames,
    checkAntispoof: tasks.checkAntispoof,
    matchFaces: tasks.matchFaces,
    decodeUpload: tasks.decodeUpload,
  }));
  // A failed load (a missing dependency) is retried by the next call rather than remembered.
  load.catch(() => {
    if (loaded === load) loaded = undefined;
  });
  loaded = load;
  return load;
}
