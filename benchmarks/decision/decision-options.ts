/** The command line of `npm run bench:decision`: how many applicants, passes and polls, and where results go. */
import path from 'node:path';
import { ROOT } from './decision-stack';

function option(name: string, fallback: number, least = 1): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value < least) throw new Error(`--${name} takes a number ≥ ${least}`);
  return value;
}

const quick = process.argv.includes('--quick');

export const options = {
  quick,
  applicants: option('applicants', quick ? 12 : 40),
  concurrency: option('concurrency', 4),
  passes: option('passes', quick ? 1 : 3),
  poll_ms: option('poll-ms', 250),
  warmup: option('warmup', 4),
  /** Applicants showing the recapture-like portrait, after the passes and outside every figure. */
  pad_cases: option('pad-cases', 3, 0),
  /**
   * Production sessions: the server-paced challenge performed live (paced-liveness.ts), each
   * applicant in an account of its own, with every production check on (capture reuse, known faces).
   */
  paced: process.argv.includes('--paced'),
};

const stateIndex = process.argv.indexOf('--state');

/** `--state DIR`: where the stack keeps its data (so two runs on one machine never share it). */
export const STATE_DIR = stateIndex > 0 ? path.resolve(process.argv[stateIndex + 1]) : undefined;

export type DecisionOptions = typeof options;

const nodeOptionsIndex = process.argv.indexOf('--service-node-options');

/**
 * `--service-node-options "FLAGS"`: NODE_OPTIONS for the API and the worker only (the front keeps
 * its own flags), to measure a runtime flag side by side; default: the services' own.
 */
export const SERVICE_NODE_OPTIONS = nodeOptionsIndex > 0 ? process.argv[nodeOptionsIndex + 1] : undefined;

const ferretIndex = process.argv.indexOf('--ferretdb-bin');

/** `--ferretdb-bin PATH`: another FerretDB build for the store, to compare builds side by side. */
export const FERRETDB_BIN = ferretIndex > 0 ? path.resolve(process.argv[ferretIndex + 1]) : undefined;

const outIndex = process.argv.indexOf('--out');

/** Where decision.{json,md,svg} are written: --out, else benchmarks/results. */
export const OUT = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(ROOT, 'benchmarks', 'results');

/** `--compare BEFORE.json AFTER.json`: the two runs side by side, running nothing. */
export function compareOnly(): [string, string] | undefined {
  const i = process.argv.indexOf('--compare');
  return i > 0 ? [process.argv[i + 1], process.argv[i + 2]] : undefined;
}

/** `--render FILE`: the decision.json to draw decision.md and decision.svg from again, running nothing. */
export function renderOnly(): string | undefined {
  const i = process.argv.indexOf('--render');
  return i > 0 ? process.argv[i + 1] : undefined;
}
