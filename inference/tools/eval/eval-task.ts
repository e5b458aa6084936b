/**
 * What an evaluation task plugs into `npm run eval`. A task reads its labelled file, runs the real
 * check (through a ModelRunner) on every sample and hands back scored trials plus the decision
 * line the check uses; the harness turns them into FMR/FNMR, the equal-error point, a ROC/DET chart
 * and a JSON summary. Tasks measured otherwise (document field accuracy) return only `summary`
 * and `report`.
 */
import type { ModelRunner } from '../../src/runtime/model-runner';

/** `--key value` flags after `npm run eval --`; `task` is always present. */
export type EvalArgs = Record<string, string | undefined>;

export interface EvalContext {
  runner: ModelRunner;
  args: EvalArgs;
  log: (line: string) => void;
}

/** One labelled comparison: genuine trials should pass the check (same person, live face). */
export interface ScoredTrial {
  id: string;
  /** Null when the check could not score it (no face found): a reject at any threshold. */
  score: number | null;
  genuine: boolean;
  kind: string;
}

export interface DecisionLine {
  /** The score's name as the check reports it, e.g. "cosine_similarity". */
  score: string;
  threshold: number;
  /** 'gte': a trial passes when score >= threshold; 'lte': when score <= threshold. */
  comparison: 'gte' | 'lte';
  /** Where the line is configured, so the reader knows what to edit. */
  configuredIn: string;
}

export interface EvalOutcome {
  trials?: ScoredTrial[];
  decision?: DecisionLine;
  /** What FMR and FNMR mean for this task, e.g. antispoof: "spoof accepted" / "live rejected". */
  vocabulary?: { falseAccept: string; falseReject: string };
  /** Task-specific figures merged into summary.json. */
  summary?: Record<string, unknown>;
  /** Lines printed after the standard figures. */
  report?: string[];
  /** Further files (name → content) written beside summary.json, e.g. a task's own chart. */
  artefacts?: Record<string, string>;
}

export interface EvalTask {
  name: string;
  /** The flags it takes, for --help. */
  usage: string;
  /** Models the in-process runner must load for it. */
  models: string[];
  run(context: EvalContext): Promise<EvalOutcome>;
}
