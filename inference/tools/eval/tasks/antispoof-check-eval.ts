import { readFile } from 'node:fs/promises';
import type { EvalTask } from '../eval-task';
import { readJsonl, requireFlag, resolveBeside } from '../read-jsonl';
import { checkLabel } from './antispoof-eval';
import { checkAntispoof } from '../../../src/tasks';

/**
 * The antispoof check as served (both models, both lines) on labelled images: APCER per attack
 * type (attacks accepted / attacks of that type) and BPCER per bona fide type (live rejected),
 * with how many were stopped by the face detector rather than the models. The check's verdict
 * combines two lines, so this is a count, not a curve; each model's own curve comes from the
 * `antispoof` and `passive_liveness` tasks.
 */
export const antispoofCheckEval: EvalTask = {
  name: 'antispoof_check',
  usage: '--labels <labels.jsonl>   lines {"image": img, "live": bool, "kind": str}',
  models: ['face-detection', 'face-landmarks', 'antispoof', 'passive-liveness'],
  async run({ runner, args }) {
    const file = requireFlag(args, 'labels');
    const rows = await readJsonl(file, checkLabel);
    const byKind = new Map<string, { live: boolean; n: number; accepted: number; noFace: number }>();
    for (const row of rows) {
      const out = await checkAntispoof(runner, {
        selfie: new Uint8Array(await readFile(resolveBeside(file, row.image))),
      });
      const entry = byKind.get(row.kind) ?? { live: row.live, n: 0, accepted: 0, noFace: 0 };
      entry.n += 1;
      entry.accepted += out.verdict === 'PASS' ? 1 : 0;
      entry.noFace += out.reason === 'FACE_NOT_DETECTED' ? 1 : 0;
      byKind.set(row.kind, entry);
    }
    // APCER for an attack type counts attacks accepted; BPCER for a bona fide type counts live rejected.
    const kinds = [...byKind.entries()].map(([kind, e]) => {
      const errors = e.live ? e.n - e.accepted : e.accepted;
      return {
        kind,
        live: e.live,
        samples: e.n,
        no_face: e.noFace,
        errors,
        [e.live ? 'bpcer' : 'apcer']: errors / e.n,
      };
    });
    const pct = (k: { errors: number; samples: number }) => `${((100 * k.errors) / k.samples).toFixed(1)}%`;
    return {
      summary: { kinds },
      report: [
        'antispoof check (antispoof AND passive-liveness lines) by kind:',
        ...kinds.map((k) =>
          k.live
            ? `  BPCER ${k.kind}: ${pct(k)} (${k.errors}/${k.samples} live rejected)`
            : `  APCER ${k.kind}: ${pct(k)} (${k.errors}/${k.samples} accepted; ${k.no_face} stopped by the face detector)`,
        ),
      ],
    };
  },
};
