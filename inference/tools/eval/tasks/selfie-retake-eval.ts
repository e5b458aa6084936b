/**
 * `npm run eval -- --task selfie_retake [--labels .state/testdata/pad/labels.json]`
 * How often an honest applicant is asked to take the selfie again, and how often refused: every
 * live still of the attack set (live portraits and tight live portraits, `live-close`) is taken as
 * the selfie of a capture whose liveness frames are a live recording of the same person, and the
 * antispoof check runs as the selfie upload runs it. Reported for the served rule (a face that
 * fills the selfie is not scored and the frames decide, no retake) beside the rule it replaced
 * (such a selfie was always sent back: FACE_TOO_CLOSE), with 95 % upper bounds.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkAntispoof, padModels } from '../../../src/tasks';
import type { PadSequence } from '../../testdata/pad/make-pad-sequences';
import type { PadStill } from '../../testdata/pad/make-pad-stills';
import type { EvalTask } from '../eval-task';
import { wilsonUpper } from './pad-rates';

const defaultLabels = '.state/testdata/pad/labels.json';

interface RetakeOutcome {
  selfie: string;
  species: string;
  frames_from: string;
  too_close: boolean;
  retake: boolean;
  verdict: string;
  reason: string | null;
}

const rate = (count: number, n: number) =>
  `${((100 * count) / Math.max(n, 1)).toFixed(1)}% (${count}/${n}) [≤${(100 * wilsonUpper(count, n)).toFixed(1)}%]`;

export const selfieRetakeEval: EvalTask = {
  name: 'selfie_retake',
  usage: `[--labels ${defaultLabels}]`,
  models: ['face-detection', 'face-landmarks', ...padModels],
  async run({ runner, args, log }) {
    const file = args.labels ?? defaultLabels;
    const labels = JSON.parse(await readFile(file, 'utf8')) as { stills: PadStill[]; sequences: PadSequence[] };
    const at = (relative: string) => readFile(path.join(path.dirname(file), relative)).then((b) => new Uint8Array(b));
    const recordings = labels.sequences.filter((s) => s.live);
    const selfies = labels.stills.filter((s) => s.live);
    const outcomes: RetakeOutcome[] = [];
    for (const still of selfies) {
      // The same person's live recording when the set has one, else the first live recording.
      const recording = recordings.find((r) => r.source_identity === still.source_identity) ?? recordings[0];
      if (!recording) throw new Error(`${file} has no live recording to take the liveness frames from`);
      const check = await checkAntispoof(runner, {
        selfie: await at(still.image),
        frames: await Promise.all(recording.frames.map(at)),
      });
      const room = check.scores.find((s) => s.name === 'selfie_crop_room');
      outcomes.push({
        selfie: still.image,
        species: still.species,
        frames_from: recording.name,
        too_close: room !== undefined && room.value < room.threshold,
        retake: check.retake_reason !== null,
        verdict: check.verdict,
        reason: check.reason,
      });
    }
    log(`${outcomes.length} live selfies checked with live frames`);
    const n = outcomes.length;
    const count = (f: (o: RetakeOutcome) => boolean) => outcomes.filter(f).length;
    const report = [
      `Live selfies (${[...new Set(outcomes.map((o) => o.species))].join(', ')}), each with a live recording's frames: ${n}.`,
      `Retake asked, served rule (frames decide a close selfie): ${rate(
        count((o) => o.retake),
        n,
      )}`,
      `Retake asked, previous rule (a close selfie always sent back): ${rate(
        count((o) => o.too_close),
        n,
      )}`,
      `Refused by the antispoof check (BPCER of the selfie upload): ${rate(
        count((o) => o.verdict !== 'PASS'),
        n,
      )}`,
    ];
    return { summary: { outcomes }, report };
  },
};
