import { readFile } from 'node:fs/promises';
import { checkLiveness } from '../../../inference/src/tasks/liveness/check-liveness';
import type { ChallengeStep } from '../../../inference/src/tasks/task-contracts';
import type { EvalTask } from '../eval-task';
import { readJsonl, requireFlag, resolveBeside } from '../read-jsonl';

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
  return { name: r.name ?? `line ${line}`, frames: r.frames, challenge: r.challenge, live: r.live, expected_reason: r.expected_reason, expected_failed_step: r.expected_failed_step, kind: r.kind ?? (r.live ? 'live' : 'not-live') };
}

/**
 * Runs the liveness check on each labelled sequence. Its verdict combines several lines (steps,
 * same face, passive score), so the figures are a confusion count plus, where the file says which
 * step should fail, whether the check named it; no single score gives a ROC curve here.
 */
export const livenessEval: EvalTask = {
  name: 'liveness',
  usage: '--sequences <sequences.jsonl>   lines {"frames": [img], "challenge": [step], "live": bool, "expected_failed_step"?: step}',
  models: ['face-detection', 'face-landmarks', 'face-embedding', 'passive-liveness'],
  async run({ runner, args }) {
    const file = requireFlag(args, 'sequences');
    const rows = await readJsonl(file, checkSequence);
    const results = [];
    for (const row of rows) {
      const frames = await Promise.all(row.frames.map(async (f) => new Uint8Array(await readFile(resolveBeside(file, f)))));
      const out = await checkLiveness(runner, { frames, challenge: row.challenge });
      const verdictRight = (out.verdict === 'PASS') === row.live;
      const stepRight = row.live || row.expected_failed_step === undefined || out.failed_step === row.expected_failed_step;
      const reasonRight = row.live || !row.expected_reason || out.reason === row.expected_reason;
      results.push({ name: row.name, kind: row.kind, live: row.live, verdict: out.verdict, reason: out.reason, failed_step: out.failed_step, expected_failed_step: row.expected_failed_step ?? null, detail: out.detail, scores: out.scores, correct: verdictRight && stepRight && reasonRight });
    }
    const live = results.filter((r) => r.live);
    const attacks = results.filter((r) => !r.live);
    const falseRejects = live.filter((r) => r.verdict !== 'PASS').length;
    const falseAccepts = attacks.filter((r) => r.verdict === 'PASS').length;
    const wrongStep = results.filter((r) => !r.correct && (r.verdict === 'PASS') === r.live).length;
    return {
      summary: { sequences: results.length, live: live.length, not_live: attacks.length, false_rejects: falseRejects, false_accepts: falseAccepts, wrong_reason_or_step: wrongStep, results },
      report: [
        `sequences: ${live.length} live, ${attacks.length} not live`,
        `  live sequences rejected: ${falseRejects}/${live.length}`,
        `  not-live sequences accepted: ${falseAccepts}/${attacks.length}`,
        `  rejected for the wrong reason or step: ${wrongStep}`,
        ...results.map((r) => `  ${r.correct ? 'ok  ' : 'MISS'} ${r.name}: ${r.verdict}${r.reason ? ` ${r.reason}` : ''}${r.failed_step ? ` at ${r.failed_step}` : ''} — ${r.detail}`),
      ],
    };
  },
};
