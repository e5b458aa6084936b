/**
 * `npm run eval -- --task pad [--labels .state/testdata/pad/labels.json] [--sample N] [--results <dir>]`
 * Presentation-attack detection on the project's attack set (`npm run testdata:pad`): APCER per
 * attack species and BPCER on the live controls, with the sample count behind each, for every
 * signal on its own and for the verdict an integrator receives.
 * - stills: the PAD model on the image (its served line), and the antispoof check with the image
 *   as the selfie (the fused still verdict, as if the challenge had been passed);
 * - sequences: the planar-motion signal alone, the antispoof check (selfie = first frame, frames
 *   scored across the challenge), the liveness check, and the fused verdict (both must pass).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { decodeRgbImage } from '../../../src/images/decode-image';
import { checkAntispoof, checkLiveness, findFaceBoxes, padLines, padModels, padScores } from '../../../src/tasks';
import type { PadSequence } from '../../testdata/pad/make-pad-sequences';
import type { PadStill } from '../../testdata/pad/make-pad-stills';
import type { EvalTask } from '../eval-task';
import { describePadRates, modelSignal, padRatesChartSvg, tallyRates, type PadOutcome } from './pad-rates';

const defaultLabels = '.state/testdata/pad/labels.json';

/** The first `n` of each species (all when n is not given), in file order. */
export function firstOfEachSpecies<T extends { species: string }>(items: T[], n?: number): T[] {
  if (!n) return items;
  const seen = new Map<string, number>();
  return items.filter((item) => {
    const count = seen.get(item.species) ?? 0;
    seen.set(item.species, count + 1);
    return count < n;
  });
}

export const padEval: EvalTask = {
  name: 'pad',
  usage: `[--labels ${defaultLabels}] [--sample N (first N per species)] [--results <dir> (also write pad-eval.{md,json,svg,png} there)]`,
  models: ['face-detection', 'face-landmarks', 'face-embedding', 'passive-liveness', 'antispoof', ...padModels],
  async run({ runner, args, log }) {
    const file = args.labels ?? defaultLabels;
    const labels = JSON.parse(await readFile(file, 'utf8')) as { stills: PadStill[]; sequences: PadSequence[] };
    const sample = args.sample ? Number(args.sample) : undefined;
    const at = (relative: string) => readFile(path.join(path.dirname(file), relative)).then((b) => new Uint8Array(b));
    const lines = padLines(runner);
    const outcomes: PadOutcome[] = [];
    const stills = firstOfEachSpecies(labels.stills, sample);
    for (const [k, still] of stills.entries()) {
      const bytes = await at(still.image);
      const [box] = await findFaceBoxes(runner, [await decodeRgbImage(bytes)]);
      const [model] = box ? await padScores(runner, [{ image: await decodeRgbImage(bytes), box }]) : [null];
      const check = await checkAntispoof(runner, { selfie: bytes });
      outcomes.push({ id: still.image, kind: 'still', species: still.species, live: still.live, noFace: !box, retake: check.retake_reason !== null, accepted: {
        [modelSignal]: model !== null && model.score >= lines.realScore,
        'antispoof check (verdict)': check.verdict === 'PASS',
      } });
      if (k % 20 === 19) log(`stills: ${k + 1}/${stills.length}`);
    }
    const sequences = firstOfEachSpecies(labels.sequences, sample);
    for (const [k, sequence] of sequences.entries()) {
      const frames = await Promise.all(sequence.frames.map(at));
      const [liveness, antispoof] = [await checkLiveness(runner, { frames, challenge: sequence.challenge }), await checkAntispoof(runner, { selfie: frames[0], frames })];
      const parallax = liveness.scores.find((s) => s.name === 'planar_parallax');
      outcomes.push({ id: sequence.name, kind: 'sequence', species: sequence.species, live: sequence.live, noFace: liveness.reason === 'FACE_NOT_DETECTED', parallax: parallax?.value ?? null, accepted: {
        'planar motion': !parallax || parallax.value >= parallax.threshold,
        'antispoof check (frames)': antispoof.verdict === 'PASS',
        'liveness check': liveness.verdict === 'PASS',
        'fused verdict': liveness.verdict === 'PASS' && antispoof.verdict === 'PASS',
      } });
      if (k % 10 === 9) log(`sequences: ${k + 1}/${sequences.length}`);
    }
    const rates = tallyRates(outcomes);
    const report = describePadRates(rates, { padLine: lines.realScore, sample });
    if (args.results) await writeResults(args.results, rates, report);
    return { summary: { rates, outcomes }, report, artefacts: { 'chart.svg': padRatesChartSvg(rates) } };
  },
};

async function writeResults(dir: string, rates: ReturnType<typeof tallyRates>, report: string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const svg = padRatesChartSvg(rates);
  await writeFile(path.join(dir, 'pad-eval.svg'), svg);
  await sharp(Buffer.from(svg)).png().toFile(path.join(dir, 'pad-eval.png'));
  await writeFile(path.join(dir, 'pad-eval.json'), JSON.stringify({ rates }, null, 1) + '\n');
  await writeFile(path.join(dir, 'pad-eval.md'), ['```', ...report, '```', ''].join('\n'));
}
