/**
 * `npx tsx inference/tools/pad-calibration/score-still-signals.ts <labels.json>`: whether any signal
 * at hand separates masks and averaged faces from live stills. Reads the stills of a PAD set
 * (`npm run testdata:pad -- --out <dir>`) and prints, per species, the ROC AUC against the live stills of each signal on
 * its own: the MiniFASNet ensemble, V2, V1SE, two colour ratios of the face box (the sign fixed
 * beforehand: colder or greener reads as an attack) and the legacy pair's scores. Nothing is
 * trained or tuned; a face not found counts as the lowest score.
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import { decodeRgbImage } from '../../src/images/decode-image';
import { checkLegacyAntispoof, findFaceBoxes, padModels, padScores } from '../../src/tasks';
async function main() {
  const file = path.resolve(process.argv[2]);
  const dir = path.dirname(file);
  const all = JSON.parse(await readFile(file, 'utf8')) as {
    stills: Array<{ image: string; species: string }>;
  };
  const runner = await createInProcessModelRunner({
    repository: path.join(__dirname, '../../../models'),
    models: ['face-detection', 'face-landmarks', 'antispoof', 'passive-liveness', ...padModels],
  });
  const rows: Record<string, Record<string, number>[]> = {};
  for (const sp of ['mask', 'averaged-face', 'live']) {
    const labels = { stills: all.stills.filter((s) => s.species === sp) };
    rows[sp] = [];
    for (const s of labels.stills) {
      const bytes = new Uint8Array(await readFile(path.join(dir, s.image)));
      const img = await decodeRgbImage(bytes);
      const [box] = await findFaceBoxes(runner, [img]);
      if (!box) {
        rows[sp].push({});
        continue;
      }
      const [p] = await padScores(runner, [{ image: img, box }]);
      let r = 0,
        g = 0,
        b = 0;
      for (let y = Math.max(0, Math.round(box.y)); y < Math.min(img.height, box.y + box.height); y++)
        for (let x = Math.max(0, Math.round(box.x)); x < Math.min(img.width, box.x + box.width); x++) {
          const at = (y * img.width + x) * 3;
          r += img.data[at];
          g += img.data[at + 1];
          b += img.data[at + 2];
        }
      const legacy = await checkLegacyAntispoof(runner, { selfie: bytes });
      const sc = Object.fromEntries(legacy.scores.map((x) => [x.name, x.value]));
      rows[sp].push({
        ensemble: p.score,
        v2: p.members[0],
        v1se: p.members[1],
        'neg blue/red': -b / r,
        'red/green': r / g,
        legacy_real: sc.real_score ?? NaN,
        legacy_passive: sc.passive_liveness ?? NaN,
      });
    }
  }
  await runner.close();
  const auc = (live: number[], att: number[]) => {
    let w = 0;
    for (const l of live) for (const a of att) w += l > a ? 1 : l === a ? 0.5 : 0;
    return w / (live.length * att.length);
  };
  const signals = Object.keys(rows.live.find((x) => Object.keys(x).length)!);
  for (const sp of ['mask', 'averaged-face'])
    for (const sig of signals) {
      const v = (rs: Record<string, number>[]) => rs.map((x) => x[sig] ?? -Infinity);
      console.log(
        `${sp} ${sig} AUC ${auc(v(rows.live), v(rows[sp])).toFixed(3)} (live ${rows.live.length}, ${sp} ${rows[sp].length})`,
      );
    }
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
