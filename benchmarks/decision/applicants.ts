/**
 * The applicants a decision run drives (what each does is applicant-run.ts). Every applicant is
 * made by the project's own generators
 * (.state/testdata): clean synthetic TD3 passports printed with a real portrait, augmented selfies
 * of the same photo, and synthetic head-motion sequences of the same person that perform their
 * challenge (pinned with the sandbox `liveness_challenge`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './decision-stack';
import { distinctImage } from './distinct-images';

const TESTDATA = path.join(ROOT, '.state', 'testdata');
export const IDENTITIES = ['astronaut', 'grace-hopper', 'bearded-man'];

export interface Applicant {
  identity: string;
  passport: { file: string; image: Buffer; name: string; dob: string };
  selfie: { file: string; image: Buffer };
  liveness: { name: string; frames: Buffer[]; challenge: string[] };
}

interface DocumentLabel {
  file: string;
  variant: string;
  format: string;
  expected: { fields: { name: string; birth_date: string } };
  generation: { portrait: string };
}
interface Sequence {
  name: string;
  frames: string[];
  challenge: string[];
  kind: string;
}

/**
 * n applicants cycling over identities, then each identity's passports, sequences and selfies.
 * `first` numbers them across the whole run so no two applicants (nor two frames) send the same
 * bytes, see distinct-images.ts.
 */
export async function loadApplicants(n: number, first = 0): Promise<Applicant[]> {
  const labels = (
    JSON.parse(readFileSync(path.join(TESTDATA, 'documents/labels.json'), 'utf8')) as {
      documents: DocumentLabel[];
    }
  ).documents;
  const sequences = readFileSync(path.join(TESTDATA, 'liveness/sequences.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Sequence);
  const pools = IDENTITIES.map((identity) => {
    const passports = labels.filter(
      (d) => d.format === 'TD3' && d.variant === 'clean' && d.generation.portrait === identity,
    );
    const performing = sequences.filter(
      (s) => s.name.startsWith(`${identity}__`) && s.kind === 'synthetic-performs-challenge',
    );
    if (!passports.length || !performing.length)
      throw new Error(`no clean TD3 passport or performing liveness sequence for ${identity}: run scripts/setup.sh`);
    return { identity, passports, performing };
  });
  const cache = new Map<string, Buffer>();
  const read = (file: string) => cache.get(file) ?? cache.set(file, readFileSync(file)).get(file)!;
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const pool = pools[i % pools.length];
      const round = Math.floor(i / pools.length);
      const label = pool.passports[round % pool.passports.length];
      const sequence = pool.performing[round % pool.performing.length];
      const frames = sequence.frames.map((f) => read(path.join(TESTDATA, 'liveness', f)));
      while (frames.length < 8) frames.push(frames[frames.length - 1]); // the API takes at least 8 frames
      const selfieFile = `${pool.identity}__augmented-${(round % 4) + 1}.jpg`;
      const seed = (first + i) * 64;
      return {
        identity: pool.identity,
        passport: {
          file: label.file,
          image: await distinctImage(read(path.join(TESTDATA, 'documents', label.file)), seed),
          name: label.expected.fields.name,
          dob: label.expected.fields.birth_date,
        },
        selfie: {
          file: selfieFile,
          image: await distinctImage(read(path.join(TESTDATA, 'faces', selfieFile)), seed + 1),
        },
        liveness: {
          name: sequence.name,
          frames: await Promise.all(frames.map((f, k) => distinctImage(f, seed + 2 + k))),
          challenge: sequence.challenge,
        },
      };
    }),
  );
}
