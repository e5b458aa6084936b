/**
 * `npx tsx inference/tools/pad-calibration/calibrate-pad-lines.ts [labels.json]`: the evidence
 * behind the MiniFASNet lines in models/pad-minifasnet-*\/1/config.json. Scores every still of the
 * PAD set (`npm run testdata:pad`) as a selfie would be scored (ensemble score and crop room) and
 * every sequence's frames as the previous frames rule scored them (five spread across the challenge: median and
 * worst), then for each candidate line prints BPCER on the live samples and APCER per attack
 * species, with the counts. Writes .state/pad-calibration.json.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import { decodeRgbImage } from '../../src/images/decode-image';
import { findFaceBoxes, padModels, padScores, spreadFrames } from '../../src/tasks';

interface Scored {
  id: string;
  species: string;
  live: boolean;
  score: number | null;
  room: number | null;
  worst?: number | null;
}

const repoRoot = path.resolve(__dirname, '../../..');

async function main() {
  const file = process.argv[2] ?? path.join(repoRoot, '.state/testdata/pad/labels.json');
  const labels = JSON.parse(await readFile(file, 'utf8')) as {
    stills: Array<{ image: string; live: boolean; species: string }>;
    sequences: Array<{ name: string; frames: string[]; live: boolean; species: string }>;
  };
  const runner = await createInProcessModelRunner({
    repository: path.join(repoRoot, 'models'),
    models: ['face-detection', ...padModels],
  });
  const image = async (relative: string) =>
    decodeRgbImage(new Uint8Array(await readFile(path.join(path.dirname(file), relative))));
  const stills: Scored[] = [];
  for (const still of labels.stills) {
    const img = await image(still.image);
    const [box] = await findFaceBoxes(runner, [img]);
    const [s] = box ? await padScores(runner, [{ image: img, box }]) : [null];
    stills.push({
      id: still.image,
      species: still.species,
      live: still.live,
      score: s?.score ?? null,
      room: s?.room ?? null,
    });
  }
  const sequences: Scored[] = [];
  for (const sequence of labels.sequences) {
    const frames = await Promise.all(spreadFrames(sequence.frames, 5).map((f) => image(f.bytes)));
    const boxes = await findFaceBoxes(runner, frames);
    const faces = frames.flatMap((f, i) => (boxes[i] ? [{ image: f, box: boxes[i] }] : []));
    const scores = (await padScores(runner, faces)).map((s) => s.score).sort((a, b) => a - b);
    const median = scores.length
      ? scores.length % 2
        ? scores[scores.length >> 1]
        : (scores[scores.length / 2 - 1] + scores[scores.length / 2]) / 2
      : null;
    sequences.push({
      id: sequence.name,
      species: sequence.species,
      live: sequence.live,
      score: median,
      room: null,
      worst: scores[0] ?? null,
    });
  }
  await runner.close();
  await writeFile(
    path.join(repoRoot, '.state/pad-calibration.json'),
    JSON.stringify({ stills, sequences }, null, 1) + '\n',
  );
  const species = (rows: Scored[]) => [...new Set(rows.map((r) => r.species))];
  const rate = (rows: Scored[], accepted: (r: Scored) => boolean) => `${rows.filter(accepted).length}/${rows.length}`;
  for (const line of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5]) {
    const passes = (r: Scored) => r.score !== null && r.score >= line;
    const stillRow = species(stills)
      .map(
        (sp) =>
          `${sp} ${rate(
            stills.filter((r) => r.species === sp),
            passes,
          )}`,
      )
      .join(', ');
    console.log(`line ${line}: stills accepted: ${stillRow}`);
    for (const worstLine of [0, 0.02, 0.05, 0.1]) {
      const seqPasses = (r: Scored) => passes(r) && (r.worst ?? -1) >= worstLine;
      console.log(
        `  frames median >= ${line} and worst >= ${worstLine}: ${species(sequences)
          .map(
            (sp) =>
              `${sp} ${rate(
                sequences.filter((r) => r.species === sp),
                seqPasses,
              )}`,
          )
          .join(', ')}`,
      );
    }
  }
  const rooms = stills
    .filter((r) => r.live && r.room !== null)
    .map((r) => r.room as number)
    .sort((a, b) => a - b);
  console.log(
    `live stills crop room: min ${rooms[0]?.toFixed(2)}, below 0.6: ${rooms.filter((r) => r < 0.6).length}/${rooms.length}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
