import { readFile } from 'node:fs/promises';
import type { EvalTask, ScoredTrial } from '../eval-task';
import { readJsonl, requireFlag, resolveBeside } from '../read-jsonl';
import { checkLiveness, type ChallengeStep, faceLandmarksModel, configuredThreshold } from '../../../src/tasks';

export interface SequenceRow {
  name: string;
  frames: string[];
  challenge: ChallengeStep[];
  live: boolean;
  expected_reason?: string | null;
  expected_failed_step?: ChallengeStep | null;
  kind: string;
}

function checkSequence(row: unknown, line: number): SequenceRow {
  const r = row as Partial<SequenceRow>;
  if (!Array.isArray(r.frames) || !Array.isArray(r.challenge) || typeof r.live !== 'boolean') {
    throw new Error(`sequences line ${line}: needs {"frames": [img...], "challenge": [step...], "live": bool}`);
  }
  return {
    name: r.name ?? `line ${line}`,
    frames: r.frames,
    challenge: r.challenge,
    live: r.live,
    expected_reason: r.expected_reason,
    expected_failed_step: r.expected_failed_step,
    kind: r.kind ?? (r.live ? 'live' : 'not-live'),
  };
}

/**
 * Runs the liveness check on each labelled sequence. Its verdict combines several lines (steps,
 * same face, passive score), so the figures are a confusion count per kind plus, where the file
 * says which step should fail, whether the check named it. The curve and chart are for the line
 * that decides most: a turn. Genuine trials are the turn steps of sequences that perform their
 * challenge, scored by the peak yaw change (from the first frame) toward the asked side; the
 * others are sequences where nobody turns (static, talking drift), scored by their peak yaw change
 * to either side. The turn line must sit between them.
 */
export const livenessEval: EvalTask = {
  name: 'liveness',
  usage:
    '--sequences <sequences.jsonl>   lines {"frames": [img], "challenge": [step], "live": bool, "expected_failed_step"?: step}',
  models: ['face-detection', 'face-landmarks', 'face-embedding', 'passive-liveness'],
  async run({ runner, args }) {
    const file = requireFlag(args, 'sequences');
    const rows = await readJsonl(file, checkSequence);
    const outcomes = [];
    for (const row of rows) {
      const frames = await Promise.all(
        row.frames.map(async (f) => new Uint8Array(await readFile(resolveBeside(file, f)))),
      );
      outcomes.push({ row, out: await checkLiveness(runner, { frames, challenge: row.challenge }) });
    }
    const trials = outcomes.flatMap(({ row, out }) => turnTrials(row, out.per_frame));
    const results = outcomes.map(({ row, out }) => {
      const verdictRight = (out.verdict === 'PASS') === row.live;
      const stepRight =
        row.live || row.expected_failed_step === undefined || out.failed_step === row.expected_failed_step;
      const reasonRight = row.live || !row.expected_reason || out.reason === row.expected_reason;
      return {
        name: row.name,
        kind: row.kind,
        live: row.live,
        verdict: out.verdict,
        reason: out.reason,
        failed_step: out.failed_step,
        expected_failed_step: row.expected_failed_step ?? null,
        detail: out.detail,
        scores: out.scores,
        correct: verdictRight && stepRight && reasonRight,
      };
    });
    const live = results.filter((r) => r.live);
    const attacks = results.filter((r) => !r.live);
    const falseRejects = live.filter((r) => r.verdict !== 'PASS').length;
    const falseAccepts = attacks.filter((r) => r.verdict === 'PASS').length;
    const wrongStep = results.filter((r) => !r.correct && (r.verdict === 'PASS') === r.live).length;
    const kinds = [...new Set(results.map((r) => r.kind))].map((kind) => {
      const of = results.filter((r) => r.kind === kind);
      const wrong = of.filter((r) => (r.verdict === 'PASS') !== r.live).length;
      return { kind, live: of[0].live, sequences: of.length, errors: wrong, rate: wrong / of.length };
    });
    const config = runner.config(faceLandmarksModel);
    return {
      trials,
      decision: {
        score: 'peak yaw change (degrees)',
        threshold: configuredThreshold(runner, faceLandmarksModel, 'turn_yaw_degrees'),
        comparison: 'gte',
        configuredIn: `models/face-landmarks/${config.version}/config.json thresholds.turn_yaw_degrees`,
      },
      vocabulary: { falseAccept: 'drift counted as a turn', falseReject: 'turn missed' },
      summary: {
        kinds,
        sequences: results.length,
        live: live.length,
        not_live: attacks.length,
        false_rejects: falseRejects,
        false_accepts: falseAccepts,
        wrong_reason_or_step: wrongStep,
        results,
      },
      report: [
        `sequences: ${live.length} live, ${attacks.length} not live`,
        `  live sequences rejected: ${falseRejects}/${live.length}`,
        `  not-live sequences accepted: ${falseAccepts}/${attacks.length}`,
        `  rejected for the wrong reason or step: ${wrongStep}`,
        ...kinds.map(
          (k) =>
            `  ${k.live ? 'BPCER' : 'APCER'} ${k.kind}: ${(100 * k.rate).toFixed(1)}% (${k.errors}/${k.sequences} ${k.live ? 'live rejected' : 'not-live accepted'})`,
        ),
        ...results.map(
          (r) =>
            `  ${r.correct ? 'ok  ' : 'MISS'} ${r.name}: ${r.verdict}${r.reason ? ` ${r.reason}` : ''}${r.failed_step ? ` at ${r.failed_step}` : ''} — ${r.detail}`,
        ),
      ],
    };
  },
};

type FrameObservation = { yaw: number; face_found: boolean };

/** Turn trials of one sequence (see livenessEval): one per turn step performed, or one for a sequence where nobody turns. */
function turnTrials(row: SequenceRow, frames: FrameObservation[]): ScoredTrial[] {
  const seen = frames.filter((f) => f.face_found);
  if (!seen.length) return [];
  const changes = seen.map((f) => f.yaw - seen[0].yaw);
  if (row.live) {
    return row.challenge
      .filter((s) => s === 'TURN_LEFT' || s === 'TURN_RIGHT')
      .map((step) => ({
        id: `${row.name} ${step}`,
        genuine: true,
        kind: `${row.kind} ${step}`,
        score: Math.max(...changes.map((c) => (step === 'TURN_LEFT' ? c : -c))),
      }));
  }
  if (!/static|drift/.test(row.kind)) return [];
  return [{ id: row.name, genuine: false, kind: row.kind, score: Math.max(...changes.map(Math.abs)) }];
}
