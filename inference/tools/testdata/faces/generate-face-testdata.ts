/**
 * `npm run testdata:faces`: writes the face-match pairs, antispoof labels and liveness sequences
 * under .state/testdata/{faces,liveness}. Seeded and idempotent: it skips work when the stamp
 * matches this generator's version, so set-up and test runs can call it freely.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeFacePairs } from './make-face-pairs';
import { makeLivenessSequences } from './make-liveness-sequences';
import { makeSpoofSamples } from './make-spoof-samples';

/** Bump when the output would change, so stale sets are rebuilt. */
const generatorVersion = '7';

export const repoRoot = path.resolve(__dirname, '../../../..');
export const faceTestdataDir = path.join(repoRoot, '.state/testdata/faces');
export const livenessTestdataDir = path.join(repoRoot, '.state/testdata/liveness');
const assetsDir = path.join(repoRoot, '.state/assets/debian');

export async function generateFaceTestdata(): Promise<void> {
  const stamp = path.join(faceTestdataDir, '.complete');
  if (existsSync(stamp) && (await readFile(stamp, 'utf8')) === generatorVersion) return;
  if (!existsSync(path.join(assetsDir, '.complete'))) {
    throw new Error('Debian assets missing: run `bash scripts/fetch-debian-assets.sh` first');
  }
  for (const dir of [faceTestdataDir, livenessTestdataDir]) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  }
  const pairs = await makeFacePairs(assetsDir, faceTestdataDir);
  const spoofs = await makeSpoofSamples(assetsDir, faceTestdataDir);
  const sequences = await makeLivenessSequences(assetsDir, livenessTestdataDir);
  await writeFile(stamp, generatorVersion);
  const genuine = pairs.filter((p) => p.same).length;
  console.log(
    `faces: ${genuine} genuine + ${pairs.length - genuine} impostor pairs, ${spoofs.length} antispoof samples; liveness: ${sequences.length} sequences`,
  );
}

if (require.main === module) {
  generateFaceTestdata().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
