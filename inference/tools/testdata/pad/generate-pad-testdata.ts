/**
 * `npm run testdata:pad [-- --per-species N --live N]`: the presentation-attack sets under
 * .state/testdata/pad/ (stills, challenge sequences, labels.json and an eval-ready labels.jsonl).
 * Seeded and idempotent: a stamp holds the generator version and the counts, and a set at least as
 * large is kept. Set-up makes a small set for `npm test` (the first samples of each species of the
 * full set, which `npm run testdata:pad` makes for `npm run eval -- --task pad`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateFaceTestdata, livenessTestdataDir, repoRoot } from '../faces/generate-face-testdata';
import { makePadSequences } from './make-pad-sequences';
import { makePadStills } from './make-pad-stills';
import { loadPadPhotos } from './pad-sources';

/** Bump when the output would change. */
const generatorVersion = '1';

export const padTestdataDir = path.join(repoRoot, '.state/testdata/pad');

export interface PadCounts { perSpecies: number; live: number; prints: number; replays: number; liveSequences: number }

export const fullCounts: PadCounts = { perSpecies: 30, live: 60, prints: 30, replays: 30, liveSequences: 40 };

export async function generatePadTestdata(counts: PadCounts = fullCounts): Promise<void> {
  const stamp = path.join(padTestdataDir, '.complete');
  // Every sample has its own seed (species and index), so a larger set holds a smaller one: keep it.
  const made = existsSync(stamp) ? await readStamp(stamp) : null;
  if (made?.version === generatorVersion && (Object.keys(counts) as Array<keyof PadCounts>).every((k) => made.counts[k] >= counts[k])) return;
  await generateFaceTestdata();
  await rm(padTestdataDir, { recursive: true, force: true });
  await mkdir(padTestdataDir, { recursive: true });
  const photos = await loadPadPhotos(path.join(repoRoot, '.state/assets/debian'), livenessTestdataDir, path.join(repoRoot, 'models'));
  const stills = await makePadStills(photos, padTestdataDir, counts.perSpecies, counts.live);
  const sequences = await makePadSequences(livenessTestdataDir, padTestdataDir, { prints: counts.prints, replays: counts.replays, live: counts.liveSequences });
  const about = 'Simulated presentation attacks and live controls made from the project\'s own photos (inference/tools/testdata/pad); every sample went through one camera model.';
  await writeFile(path.join(padTestdataDir, 'labels.json'), JSON.stringify({ generator_version: generatorVersion, about, photos: photos.map((p) => p.name), stills, sequences }, null, 1) + '\n');
  await writeFile(path.join(padTestdataDir, 'labels.jsonl'), stills.map((s) => JSON.stringify({ image: s.image, live: s.live, kind: s.species })).join('\n') + '\n');
  await writeFile(stamp, JSON.stringify({ version: generatorVersion, counts }));
  console.log(`pad: ${stills.length} stills (${stills.filter((s) => s.live).length} live) from ${photos.length} photos; ${sequences.length} sequences (${sequences.filter((s) => s.live).length} live)`);
}

async function readStamp(file: string): Promise<{ version: string; counts: PadCounts } | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
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
  return { perSpecies, live, prints: perSpecies, replays: perSpecies, liveSequences: Math.round((live * 2) / 3) };
}

if (require.main === module) {
  generatePadTestdata(countsFrom(process.argv.slice(2))).catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
