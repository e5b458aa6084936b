/**
 * `npm run bench:checks [-- --runs N]`: model time of one verification, i.e. the four checks for
 * one applicant run one after another in-process on the real models (document on a clean synthetic
 * passport, liveness on an 11-frame synthetic challenge with the selfie compared, antispoof on the selfie and 5 of the frames, face match of the
 * document portrait against the selfie). Prints p50/p99 per check and in total; writes
 * .state/bench/checks.json. Decoding is included, HTTP/gRPC transport is not.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  faceTestdataDir,
  generateFaceTestdata,
  livenessTestdataDir,
  repoRoot,
} from '../../inference/tools/testdata/faces/generate-face-testdata';
import { createInProcessModelRunner } from '../../inference/src/runtime/in-process-model-runner';
import type { ModelRunner } from '../../inference/src/runtime/model-runner';
import { checkAntispoof } from '../../inference/src/tasks/antispoof/check-antispoof';
import { verifyDocument } from '../../inference/src/tasks/document/verify-document';
import { matchFaces } from '../../inference/src/tasks/face-match/match-faces';
import { checkLiveness } from '../../inference/src/tasks/liveness/check-liveness';
import type { ChallengeStep } from '../../inference/src/tasks/task-contracts';
import { percentile as percentileOrNull } from '../../scripts/test-support/percentiles';

/** Every sample here is non-empty; NaN would mark one that was not. */
const percentile = (values: number[], p: number): number => percentileOrNull(values, p) ?? Number.NaN;

const documentFile = path.join(repoRoot, '.state/testdata/documents/synthetic-td3-passport-clean-001.jpg');
const documentDate = new Date('2026-11-01T00:00:00Z');

async function applicant() {
  await generateFaceTestdata();
  const read = async (file: string) => new Uint8Array(await readFile(file));
  const sequence = JSON.parse(
    (await readFile(path.join(livenessTestdataDir, 'sequences.jsonl'), 'utf8')).split('\n')[0],
  ) as { frames: string[]; challenge: ChallengeStep[] };
  return {
    document: await read(documentFile).catch(() => {
      throw new Error(`${documentFile} missing: generate the document test set first`);
    }),
    selfie: await read(path.join(faceTestdataDir, 'bearded-man__augmented-1.jpg')),
    fallbackPortrait: await read(path.join(faceTestdataDir, 'bearded-man__original.jpg')),
    frames: await Promise.all(sequence.frames.map((f) => read(path.join(livenessTestdataDir, f)))),
    challenge: sequence.challenge,
  };
}

async function verifyOnce(
  runner: ModelRunner,
  a: Awaited<ReturnType<typeof applicant>>,
): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const start = process.hrtime.bigint();
    const result = await work();
    times[name] = Number(process.hrtime.bigint() - start) / 1e6;
    return result;
  };
  const document = await timed('document', () => verifyDocument(runner, { image: a.document, now: documentDate }));
  await timed('liveness', () => checkLiveness(runner, { frames: a.frames, challenge: a.challenge, selfie: a.selfie }));
  await timed('antispoof', () => checkAntispoof(runner, { selfie: a.selfie, frames: a.frames }));
  await timed('face_match', () =>
    matchFaces(runner, { document_portrait: document.portrait_jpeg ?? a.fallbackPortrait, selfie: a.selfie }),
  );
  times.total = Object.values(times).reduce((s, t) => s + t, 0);
  return times;
}

async function main() {
  const runsFlag = process.argv.indexOf('--runs');
  const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 30;
  const a = await applicant();
  const runner = await createInProcessModelRunner({ repository: path.join(repoRoot, 'models') });
  try {
    for (let i = 0; i < 2; i++) await verifyOnce(runner, a); // warm caches and allocators
    const samples: Array<Record<string, number>> = [];
    for (let i = 0; i < runs; i++) samples.push(await verifyOnce(runner, a));
    const names = Object.keys(samples[0]);
    const figures = Object.fromEntries(
      names.map((n) => [
        n,
        {
          p50_ms: percentile(
            samples.map((s) => s[n]),
            50,
          ),
          p99_ms: percentile(
            samples.map((s) => s[n]),
            99,
          ),
        },
      ]),
    );
    const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${process.platform}, node ${process.version}`;
    console.log(`per-verification model time, ${runs} runs (in-process, CPU), ${machine}`);
    for (const n of names)
      console.log(
        `  ${n.padEnd(10)} p50 ${figures[n].p50_ms.toFixed(0).padStart(5)} ms   p99 ${figures[n].p99_ms.toFixed(0).padStart(5)} ms`,
      );
    const outDir = path.join(repoRoot, '.state/bench');
    await mkdir(outDir, { recursive: true });
    await writeFile(
      path.join(outDir, 'checks.json'),
      JSON.stringify({ runs, machine, figures, samples }, null, 1) + '\n',
    );
  } finally {
    await runner.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
