/**
 * `npm run testdata:pad [-- --per-species N --live N] [--set calibration] [--out <dir>] [--add-masks-worn]`: the presentation-attack
 * sets under .state/testdata/pad/ (stills, challenge sequences, labels.json and an eval-ready labels.jsonl),
 * or under `--out` (the same seeds, written elsewhere, leaving the shared set that `npm test` reads alone).
 * Seeded and idempotent: a stamp holds the generator version and the counts, and a set at least as
 * large is kept. Set-up makes a small set for `npm test` (the first samples of each species of the
 * full set, which `npm run testdata:pad` makes for `npm run eval -- --task pad`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateFaceTestdata, livenessTestdataDir, repoRoot } from '../faces/generate-face-testdata';
import { makePadSequences, type PadSequence } from './make-pad-sequences';
import { makePadStills, type PadStill } from './make-pad-stills';
import { loadPadPhotos } from './pad-sources';

/** Bump when the output would change. */
const generatorVersion = '3';

export const padTestdataDir = path.join(repoRoot, '.state/testdata/pad');

export interface PadCounts {
  perSpecies: number;
  live: number;
  prints: number;
  replays: number;
  liveSequences: number;
  masksWorn: number;
  artworks: number;
  averagedPrints: number;
}

export const fullCounts: PadCounts = {
  perSpecies: 30,
  live: 60,
  prints: 30,
  replays: 30,
  liveSequences: 60,
  masksWorn: 30,
  artworks: 30,
  averagedPrints: 30,
};

/**
 * `set` names a further set drawn from other seeds (e.g. `calibration`, written to
 * .state/testdata/pad-calibration/): the same people and species, other parameters, so lines can
 * be placed on one set and reported on the other.
 */
export async function generatePadTestdata(counts: PadCounts = fullCounts, set?: string, out?: string): Promise<void> {
  const outDir = out ? path.resolve(out) : set ? `${padTestdataDir}-${set}` : padTestdataDir;
  const seedPrefix = set ? `pad-${set}` : 'pad';
  const stamp = path.join(outDir, '.complete');
  // Every sample has its own seed (species and index), so a larger set holds a smaller one: keep it.
  const made = existsSync(stamp) ? await readStamp(stamp) : null;
  if (
    made?.version === generatorVersion &&
    (Object.keys(counts) as Array<keyof PadCounts>).every((k) => made.counts[k] >= counts[k])
  )
    return;
  await generateFaceTestdata();
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const photos = await loadPadPhotos(
    path.join(repoRoot, '.state/assets/debian'),
    livenessTestdataDir,
    path.join(repoRoot, 'models'),
  );
  const stills = await makePadStills(photos, outDir, {
    perSpecies: counts.perSpecies,
    live: counts.live,
    seedPrefix,
  });
  const sequences = await makePadSequences(
    livenessTestdataDir,
    outDir,
    {
      prints: counts.prints,
      artworks: counts.artworks,
      averagedPrints: counts.averagedPrints,
      replays: counts.replays,
      live: counts.liveSequences,
      masksWorn: counts.masksWorn,
    },
    seedPrefix,
    photos,
  );
  const about =
    "Simulated presentation attacks and live controls made from the project's own photos (inference/tools/testdata/pad); every sample went through one camera model.";
  await writeFile(
    path.join(outDir, 'labels.json'),
    JSON.stringify(
      {
        generator_version: generatorVersion,
        set: set ?? 'report',
        about,
        photos: photos.map((p) => p.name),
        stills,
        sequences,
      },
      null,
      1,
    ) + '\n',
  );
  await writeFile(
    path.join(outDir, 'labels.jsonl'),
    stills.map((s) => JSON.stringify({ image: s.image, live: s.live, kind: s.species })).join('\n') + '\n',
  );
  await writeFile(stamp, JSON.stringify({ version: generatorVersion, counts }));
  console.log(
    `pad${set ? `-${set}` : ''}: ${stills.length} stills (${stills.filter((s) => s.live).length} live) from ${photos.length} photos; ${sequences.length} sequences (${sequences.filter((s) => s.live).length} live)`,
  );
}

/** labels.json: the stills, the generator version, and the rest of the set's record, kept as read. */
interface PadLabels {
  stills: PadStill[];
  generator_version?: string;
  [key: string]: unknown;
}

/**
 * Remakes only the stills of `only` in an existing set (their seeds are their own, so the result
 * is what a full run would make) and rewrites the labels; for when one species' simulation changed.
 */
export async function remakeStills(only: string[], set?: string): Promise<void> {
  const outDir = set ? `${padTestdataDir}-${set}` : padTestdataDir;
  const labels = JSON.parse(await readFile(path.join(outDir, 'labels.json'), 'utf8')) as PadLabels;
  const made = await readStamp(path.join(outDir, '.complete'));
  if (!made) throw new Error(`no complete set in ${outDir}: run npm run testdata:pad first`);
  for (const still of labels.stills.filter((s) => only.includes(s.species)))
    await rm(path.join(outDir, still.image), { force: true });
  const photos = await loadPadPhotos(
    path.join(repoRoot, '.state/assets/debian'),
    livenessTestdataDir,
    path.join(repoRoot, 'models'),
  );
  const fresh = await makePadStills(photos, outDir, {
    perSpecies: made.counts.perSpecies,
    live: made.counts.live,
    seedPrefix: set ? `pad-${set}` : 'pad',
    only,
  });
  labels.stills = [...labels.stills.filter((s) => !only.includes(s.species)), ...fresh];
  labels.generator_version = generatorVersion;
  await writeFile(path.join(outDir, 'labels.json'), JSON.stringify(labels, null, 1) + '\n');
  await writeFile(
    path.join(outDir, 'labels.jsonl'),
    labels.stills.map((s) => JSON.stringify({ image: s.image, live: s.live, kind: s.species })).join('\n') + '\n',
  );
  await writeFile(path.join(outDir, '.complete'), JSON.stringify({ version: generatorVersion, counts: made.counts }));
  console.log(`pad: remade ${fresh.length} stills of ${only.join(', ')}`);
}

/**
 * Adds the sequences of a species made after the set was (the worn masks) to an existing set in
 * place: each sample has its own seed, so they are what a full run would make, and nothing else
 * is remade.
 */
export async function addMaskWornSequences(set?: string): Promise<void> {
  const outDir = set ? `${padTestdataDir}-${set}` : padTestdataDir;
  const made = await readStamp(path.join(outDir, '.complete'));
  if (!made) throw new Error(`no complete set in ${outDir}: run npm run testdata:pad first`);
  const labels = JSON.parse(await readFile(path.join(outDir, 'labels.json'), 'utf8')) as { sequences: PadSequence[] };
  const photos = await loadPadPhotos(
    path.join(repoRoot, '.state/assets/debian'),
    livenessTestdataDir,
    path.join(repoRoot, 'models'),
  );
  const masksWorn = made.counts.masksWorn ?? made.counts.prints;
  const fresh = await makePadSequences(
    livenessTestdataDir,
    outDir,
    { prints: 0, artworks: 0, averagedPrints: 0, replays: 0, live: 0, masksWorn },
    set ? `pad-${set}` : 'pad',
    photos,
  );
  const sequences = [...labels.sequences.filter((s) => s.species !== 'mask-worn'), ...fresh];
  await writeFile(
    path.join(outDir, 'labels.json'),
    JSON.stringify({ ...labels, generator_version: generatorVersion, sequences }, null, 1) + '\n',
  );
  await writeFile(
    path.join(outDir, '.complete'),
    JSON.stringify({ version: generatorVersion, counts: { ...made.counts, masksWorn } }),
  );
  console.log(`pad: added ${fresh.length} mask-worn sequences`);
}

async function readStamp(file: string): Promise<{ version: string; counts: PadCounts } | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as { version: string; counts: PadCounts };
  } catch {
    return null;
  }
}

function countsFrom(argv: string[]): PadCounts {
  const flag = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? Number(argv[at + 1]) : undefined;
  };
  const perSpecies = flag('per-species') ?? fullCounts.perSpecies;
  const live = flag('live') ?? fullCounts.live;
  return {
    perSpecies,
    live,
    prints: perSpecies,
    replays: perSpecies,
    masksWorn: perSpecies,
    artworks: perSpecies,
    averagedPrints: perSpecies,
    liveSequences: live,
  };
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const set = argv.includes('--set') ? argv[argv.indexOf('--set') + 1] : undefined;
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : undefined;
  const out = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : undefined;
  if (only && out) throw new Error('--only remakes the stills of a set in place; it takes --set, not --out');
  const run = argv.includes('--add-masks-worn')
    ? addMaskWornSequences(set)
    : only
      ? remakeStills(only, set)
      : generatePadTestdata(countsFrom(argv), set, out);
  run.catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
