/**
 * `npx tsx inference/tools/pad-calibration/time-frames-rule.ts [--runs N]`: what scoring more
 * liveness frames costs. The antispoof check on a selfie and a performing liveness sequence of
 * each length (9, 11, 13 frames) under the served frames rule and under the previous one (five
 * frames), interleaved run by run so that both see the same load; prints the medians, the added ms
 * and the load average. In process, CPU, the intra-op threads the service uses by default.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { livenessTestdataDir, repoRoot } from '../testdata/faces/generate-face-testdata';
import { createInProcessModelRunner } from '../../src/runtime/in-process-model-runner';
import { checkAntispoof, padLines, padModels } from '../../src/tasks';
import { previousFramesRule, withPadThresholds } from '../eval/tasks/pad-eval';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function main() {
  const at = process.argv.indexOf('--runs');
  const runs = at > 0 ? Number(process.argv[at + 1]) : 15;
  const runner = await createInProcessModelRunner({
    repository: path.join(repoRoot, 'models'),
    models: ['face-detection', ...padModels],
  });
  const previous = withPadThresholds(runner, previousFramesRule);
  const recorded = (await readFile(path.join(livenessTestdataDir, 'sequences.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { frames: string[]; live: boolean });
  const load = async (f: string) => new Uint8Array(await readFile(path.join(livenessTestdataDir, f)));
  const lines = padLines(runner);
  console.log(
    `served: ${lines.framesScored} frames at most, quantile ${lines.framesQuantile} >= ${lines.framesScore}, each >= ${lines.frameScore}; previous: ${JSON.stringify(previousFramesRule)}`,
  );
  for (const length of [9, 11, 13]) {
    const sequence = recorded.find((s) => s.live && s.frames.length === length);
    if (!sequence) continue;
    const frames = await Promise.all(sequence.frames.map(load));
    const selfie = frames[0];
    const times = { served: [] as number[], previous: [] as number[] };
    for (let i = 0; i < runs + 2; i++) {
      for (const [name, r] of [
        ['served', runner],
        ['previous', previous],
      ] as const) {
        const start = process.hrtime.bigint();
        await checkAntispoof(r, { selfie, frames });
        if (i >= 2) times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    const [s, p] = [median(times.served), median(times.previous)];
    console.log(
      `${length} frames: served ${s.toFixed(1)} ms, previous ${p.toFixed(1)} ms, added ${(s - p).toFixed(1)} ms (median of ${runs})`,
    );
  }
  console.log(
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join('/')}, ${os.cpus().length} x ${os.cpus()[0]?.model}`,
  );
  await runner.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
