/**
 * `npx tsx benchmarks/capture-reuse/pad-species-pairs.ts`: which of the PAD set's captures of
 * different people fall within the perceptual line (Hamming ≤ 7), by species pair: sequences under
 * the liveness rule (half the frames, two at least, copy the other sequence) and stills one to one.
 * The set's mask species are drawn over other people's live captures, so a pair of them is one
 * recording twice, whatever the labels' source identity says.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dctHash, hammingDistance } from '../../api/src/public-entry';

const DATA = path.resolve(__dirname, '../../.state/testdata/pad-full');
const LINE = 7;

interface Labels {
  sequences: { name: string; frames: string[]; species: string; source_identity: string }[];
  stills: { image: string; species: string; source_identity: string }[];
}

const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
const hash = (file: string) => dctHash(readFileSync(path.join(DATA, file)));

async function main() {
  const labels = JSON.parse(readFileSync(path.join(DATA, 'labels.json'), 'utf8')) as Labels;
  const sequences = await Promise.all(
    labels.sequences.map(async (s) => ({ ...s, hashes: await Promise.all(s.frames.map(hash)) })),
  );
  const stills = await Promise.all(labels.stills.map(async (s) => ({ ...s, hash: await hash(s.image) })));
  let sequencePairs = 0;
  const flagged = new Map<string, number>();
  for (const a of sequences) {
    for (const b of sequences) {
      if (a === b || a.source_identity === b.source_identity) continue;
      sequencePairs++;
      const copied = a.hashes.filter((x) => b.hashes.some((y) => hammingDistance(x, y) <= LINE)).length;
      if (copied >= Math.max(2, Math.ceil(a.hashes.length / 2))) bump(flagged, `${a.species} / ${b.species}`);
    }
  }
  let stillPairs = 0;
  const near = new Map<string, number>();
  for (let i = 0; i < stills.length; i++) {
    for (let j = i + 1; j < stills.length; j++) {
      if (stills[i].source_identity === stills[j].source_identity) continue;
      stillPairs++;
      if (hammingDistance(stills[i].hash, stills[j].hash) <= LINE)
        bump(near, `${stills[i].species} / ${stills[j].species}`);
    }
  }
  const list = (counts: Map<string, number>) =>
    [...counts]
      .sort((x, y) => y[1] - x[1])
      .map(([k, n]) => `  ${k}: ${n}`)
      .join('\n') || '  none';
  process.stdout.write(
    [
      `ordered pairs of sequences of different people: ${sequencePairs}; flagged at d ≤ ${LINE} (half the frames):`,
      list(flagged),
      `pairs of stills of different people: ${stillPairs}; within d ≤ ${LINE}:`,
      list(near),
      '',
    ].join('\n'),
  );
}

void main();
