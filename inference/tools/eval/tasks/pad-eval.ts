/**
 * `npm run eval -- --task pad [--labels .state/testdata/pad/labels.json] [--sample N] [--results <dir>] [--stills-from <pad-eval.json>] [--merge <summary.json,...>]`
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
import type { ModelRunner } from '../../../src/runtime/model-runner';
import { checkAntispoof, checkLiveness, findFaceBoxes, padLines, padModels, padScores } from '../../../src/tasks';
import type { PadSequence } from '../../testdata/pad/make-pad-sequences';
import type { PadStill } from '../../testdata/pad/make-pad-stills';
import type { EvalTask } from '../eval-task';
import { describePadRates, modelSignal, padRatesChartSvg, tallyRates, type PadOutcome } from './pad-rates';

const defaultLabels = '.state/testdata/pad/labels.json';

/**
 * The frames rule served before the frames were pooled (five frames, their median against the
 * selfie's line, every frame against a floor), run beside the served one for comparison. Putting
 * these values in the pair's config.json thresholds serves it again.
 */
export const previousFramesRule = {
  frames_scored: 5,
  frames_quantile: 0.5,
  min_frames_score: 0.1,
  min_frame_score: 0.02,
};

/** The same runner with some of the PAD pair's thresholds replaced, as another config.json would serve them. */
export function withPadThresholds(base: ModelRunner, thresholds: Record<string, number>): ModelRunner {
  return {
    infer: (name, inputs, options) => base.infer(name, inputs, options),
    config: (name) => {
      const config = base.config(name);
      return (padModels as readonly string[]).includes(name)
        ? { ...config, thresholds: { ...config.thresholds, ...thresholds } }
        : config;
    },
  };
}

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
  usage: `[--labels ${defaultLabels}] [--sample N (first N per species)] [--results <dir> (also write pad-eval.{md,json,svg,png} there)] [--stills-from <earlier pad-eval.json> (sequences-only labels: keep that run's still rates)] [--merge <summary.json,...> (tally shards run apart)]`,
  models: ['face-detection', 'face-landmarks', 'face-embedding', 'passive-liveness', 'antispoof', ...padModels],
  async run({ runner, args, log }) {
    const file = args.labels ?? defaultLabels;
    const labels = args.merge
      ? { stills: [], sequences: [] }
      : (JSON.parse(await readFile(file, 'utf8')) as { stills: PadStill[]; sequences: PadSequence[] });
    const sample = args.sample ? Number(args.sample) : undefined;
    const at = (relative: string) => readFile(path.join(path.dirname(file), relative)).then((b) => new Uint8Array(b));
    const lines = padLines(runner);
    const previousRule = withPadThresholds(runner, previousFramesRule);
    const outcomes: PadOutcome[] = [];
    // Shards of one set run as separate processes (each with its own --labels and --out) are tallied together.
    for (const summary of args.merge ? args.merge.split(',') : [])
      outcomes.push(...(JSON.parse(await readFile(summary, 'utf8')) as { outcomes: PadOutcome[] }).outcomes);
    const stills = args.merge ? [] : firstOfEachSpecies(labels.stills, sample);
    for (const [k, still] of stills.entries()) {
      const bytes = await at(still.image);
      const [box] = await findFaceBoxes(runner, [await decodeRgbImage(bytes)]);
      const [model] = box ? await padScores(runner, [{ image: await decodeRgbImage(bytes), box }]) : [null];
      const check = await checkAntispoof(runner, { selfie: bytes });
      outcomes.push({
        id: still.image,
        kind: 'still',
        species: still.species,
        live: still.live,
        noFace: !box,
        retake: check.retake_reason !== null,
        accepted: {
          [modelSignal]: model !== null && model.score >= lines.realScore,
          'antispoof check (verdict)': check.verdict === 'PASS',
        },
      });
      if (k % 20 === 19) log(`stills: ${k + 1}/${stills.length}`);
    }
    const sequences = args.merge ? [] : firstOfEachSpecies(labels.sequences, sample);
    for (const [k, sequence] of sequences.entries()) {
      const frames = await Promise.all(sequence.frames.map(at));
      const liveness = await checkLiveness(runner, { frames, challenge: sequence.challenge });
      const antispoof = await checkAntispoof(runner, { selfie: frames[0], frames });
      const before = await checkAntispoof(previousRule, { selfie: frames[0], frames });
      const parallax = liveness.scores.find((s) => s.name === 'planar_parallax');
      outcomes.push({
        id: sequence.name,
        kind: 'sequence',
        species: sequence.species,
        live: sequence.live,
        noFace: liveness.reason === 'FACE_NOT_DETECTED',
        parallax: parallax?.value ?? null,
        accepted: {
          'planar motion': !parallax || parallax.value >= parallax.threshold,
          [`antispoof, previous frames rule`]: before.verdict === 'PASS',
          'antispoof check (frames)': antispoof.verdict === 'PASS',
          'liveness check': liveness.verdict === 'PASS',
          'fused, previous frames rule': liveness.verdict === 'PASS' && before.verdict === 'PASS',
          'fused verdict': liveness.verdict === 'PASS' && antispoof.verdict === 'PASS',
        },
      });
      if (k % 10 === 9) log(`sequences: ${k + 1}/${sequences.length}`);
    }
    let rates = tallyRates(outcomes);
    const stillsFrom = args['stills-from'];
    if (stillsFrom) {
      // The stills are judged by the selfie path alone, which the frames rules leave unchanged:
      // an earlier run's still rates can stand beside a sequences-only run, and the report says so.
      if (stills.length) throw new Error('--stills-from is for a labels file without stills');
      const earlier = JSON.parse(await readFile(stillsFrom, 'utf8')) as {
        rates: ReturnType<typeof tallyRates>;
        outcomes?: PadOutcome[];
      };
      rates = [...earlier.rates.filter((r) => r.kind === 'still'), ...rates];
      outcomes.unshift(...(earlier.outcomes ?? []).filter((o) => o.kind === 'still'));
    }
    const report = describePadRates(rates, { padLine: lines.realScore, sample });
    if (stillsFrom)
      report.splice(
        1,
        0,
        `Stills: the rates of an earlier run (${path.basename(stillsFrom)}), not re-measured here; the sequences were measured now.`,
      );
    if (args.results) await writeResults(args.results, rates, report, outcomes);
    return { summary: { rates, outcomes }, report, artefacts: { 'chart.svg': padRatesChartSvg(rates) } };
  },
};

async function writeResults(
  dir: string,
  rates: ReturnType<typeof tallyRates>,
  report: string[],
  outcomes: PadOutcome[],
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const svg = padRatesChartSvg(rates);
  await writeFile(path.join(dir, 'pad-eval.svg'), svg);
  await sharp(Buffer.from(svg)).png().toFile(path.join(dir, 'pad-eval.png'));
  await writeFile(path.join(dir, 'pad-eval.json'), JSON.stringify({ rates, outcomes }, null, 1) + '\n');
  await writeFile(path.join(dir, 'pad-eval.md'), ['```', ...report, '```', ''].join('\n'));
}
