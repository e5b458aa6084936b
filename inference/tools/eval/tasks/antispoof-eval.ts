import { readFile } from 'node:fs/promises';
import { decodeRgbImage } from '../../../src/images/decode-image';
import type { EvalTask, ScoredTrial } from '../eval-task';
import { readJsonl, requireFlag, resolveBeside } from '../read-jsonl';
import {
  antispoofModel,
  analyseFaces,
  faceCropScores,
  configuredThreshold,
  passiveLivenessModel,
} from '../../../src/tasks';

interface LabelRow {
  image: string;
  live: boolean;
  kind: string;
}

export function checkLabel(row: unknown, line: number): LabelRow {
  const r = row as Partial<LabelRow>;
  if (typeof r.image !== 'string' || typeof r.live !== 'boolean')
    throw new Error(`labels line ${line}: needs {"image": path, "live": bool}`);
  return { image: r.image, live: r.live, kind: r.kind ?? (r.live ? 'live' : 'spoof') };
}

/**
 * A single-face classifier scored on labelled images (live = genuine). An image with no face
 * found cannot be scored and counts as rejected, as the check answers FACE_NOT_DETECTED.
 */
function faceClassifierEval(name: string, model: string, threshold: string, column: number): EvalTask {
  return {
    name,
    usage: '--labels <labels.jsonl>   lines {"image": img, "live": bool, "kind": str}',
    models: ['face-detection', 'face-landmarks', model],
    async run({ runner, args }) {
      const file = requireFlag(args, 'labels');
      const rows = await readJsonl(file, checkLabel);
      const trials: ScoredTrial[] = [];
      for (const row of rows) {
        const image = await decodeRgbImage(await readFile(resolveBeside(file, row.image)));
        const [analysed] = await analyseFaces(runner, [image]);
        const score = analysed ? (await faceCropScores(runner, model, [{ image, analysed }], column))[0] : null;
        trials.push({
          id: row.image,
          score,
          genuine: row.live,
          kind: score === null ? `${row.kind} (no face found)` : row.kind,
        });
      }
      const config = runner.config(model);
      return {
        trials,
        decision: {
          score: `${model} score`,
          threshold: configuredThreshold(runner, model, threshold),
          comparison: 'gte',
          configuredIn: `models/${model}/${config.version}/config.json thresholds.${threshold}`,
        },
        vocabulary: { falseAccept: 'not-live accepted, APCER', falseReject: 'live rejected, BPCER' },
        summary: { model: { name: config.name, version: config.version, source: config.source.path } },
      };
    },
  };
}

export const antispoofEval = faceClassifierEval('antispoof', antispoofModel, 'min_real_score', 0);
export const passiveLivenessEval = faceClassifierEval('passive_liveness', passiveLivenessModel, 'min_live_score', 0);
