/**
 * The applicants a decision run drives (what each does is applicant-run.ts). Every applicant is
 * made by the project's own generators
 * (.state/testdata): clean synthetic TD3 passports printed with a real portrait, augmented selfies
 * of the same photo as the hosted page encodes them (page-selfies.ts), and synthetic head-motion sequences of the same person that perform their
 * challenge (pinned with the sandbox `liveness_challenge`). The measured applicants are camera
 * photos (live-like-sequences.ts makes the third subject's sequences); Grace Hopper's portrait, a
 * scan of a 1984 print, is a recapture to PAD and runs apart as a PAD case.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './decision-stack';
import { distinctImage } from './distinct-images';
import { liveLikeSequences } from './live-like-sequences';
import { pageSelfie } from './page-selfies';

const TESTDATA = path.join(ROOT, '.state', 'testdata');
/** The honest applicants: camera photos of three people. */
export const IDENTITIES = ['astronaut', 'messi', 'bearded-man'];
/** The recapture-like portrait, driven apart: PAD must refuse it, and it is no honest applicant. */
export const PAD_CASE = 'grace-hopper';

export interface Applicant {
  identity: string;
  passport: { file: string; image: Buffer; name: string; dob: string };
  selfie: { file: string; image: Buffer };
  liveness: { name: string; frames: Buffer[]; challenge: string[] };
  /** With --paced: the live key of the applicant's own account (see bench-decision.ts). */
  apiKey?: string;
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
interface Performing {
  name: string;
  frames: Buffer[];
  challenge: string[];
}

/** n applicants showing the recapture-like portrait, numbered from `first` as loadApplicants numbers them. */
export const loadPadCases = (n: number, first: number) => loadApplicants(n, first, [PAD_CASE]);

/**
 * n applicants cycling over identities, then each identity's passports, sequences and selfies.
 * `first` numbers them across the whole run so no two applicants (nor two frames) send the same
 * bytes, see distinct-images.ts.
 */
export async function loadApplicants(n: number, first = 0, identities = IDENTITIES): Promise<Applicant[]> {
  const labels = (
    JSON.parse(readFileSync(path.join(TESTDATA, 'documents/labels.json'), 'utf8')) as {
      documents: DocumentLabel[];
    }
  ).documents;
  const sequences = readFileSync(path.join(TESTDATA, 'liveness/sequences.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Sequence);
  const cache = new Map<string, Buffer>();
  const read = (file: string) => cache.get(file) ?? cache.set(file, readFileSync(file)).get(file)!;
  const made = await liveLikeSequences(path.join(TESTDATA, 'faces'));
  const selfies = new Map<string, Promise<Buffer>>();
  const selfieOf = (file: string) => selfies.get(file) ?? selfies.set(file, pageSelfie(ROOT, file)).get(file)!;
  const pools = identities.map((identity) => {
    const passports = labels.filter(
      (d) => d.format === 'TD3' && d.variant === 'clean' && d.generation.portrait === identity,
    );
    const performing: Performing[] = sequences
      .filter((s) => s.name.startsWith(`${identity}__`) && s.kind === 'synthetic-performs-challenge')
      .map((s) => ({ ...s, frames: s.frames.map((f) => read(path.join(TESTDATA, 'liveness', f))) }));
    if (!performing.length) performing.push(...made.filter((s) => s.name.startsWith(`${identity}__`)));
    if (!passports.length || !performing.length)
      throw new Error(`no clean TD3 passport or performing liveness sequence for ${identity}: run scripts/setup.sh`);
    return { identity, passports, performing };
  });
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const pool = pools[i % pools.length];
      const round = Math.floor(i / pools.length);
      const label = pool.passports[round % pool.passports.length];
      const sequence = pool.performing[round % pool.performing.length];
      const frames = [...sequence.frames];
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
          image: await distinctImage(await selfieOf(selfieFile), seed + 1),
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
