import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/**
 * The applicants the capture tests drive, all made by the project's own generators (never
 * committed): synthetic documents printed with real portraits from Debian packages, selfies that
 * are augmented copies of those same photos, and synthetic head-motion sequences of the same
 * people. Test names say so; the figures they give flatter the models (see models/README.md).
 */
export const TESTDATA = path.resolve(__dirname, '../../../../.state/testdata');

interface DocumentLabel {
  file: string;
  variant: string;
  format: string;
  expected: { fields: { name: string; birth_date: string; document_country: string } };
  generation: { portrait: string };
}
interface LivenessSequence {
  name: string;
  frames: string[];
  challenge: string[];
  kind: string;
}

const labels = (): DocumentLabel[] =>
  (JSON.parse(readFileSync(path.join(TESTDATA, 'documents/labels.json'), 'utf8')) as { documents: DocumentLabel[] })
    .documents;

export function documentOf(
  format: 'TD1' | 'TD3',
  variant: 'clean' | 'blurred-mrz',
  portrait: string,
  /** Which of that portrait's documents (each names another synthetic person). */
  nth = 0,
): { image: Buffer; label: DocumentLabel } {
  const label = labels().filter(
    (d) => d.format === format && d.variant === variant && d.generation.portrait === portrait,
  )[nth];
  if (!label)
    throw new Error(`no ${variant} ${format} document with portrait ${portrait}: run npm run testdata:documents`);
  return { image: readFileSync(path.join(TESTDATA, 'documents', label.file)), label };
}

/** A TD1 card image shows the front above the back: cut it into the two photos an applicant takes. */
export async function cardSides(image: Buffer): Promise<{ front: Buffer; back: Buffer }> {
  const { width, height } = await sharp(image).metadata();
  const half = Math.round(height / 2);
  const cut = (top: number, h: number) =>
    sharp(image).extract({ left: 0, top, width: width, height: h }).jpeg({ quality: 92 }).toBuffer();
  return { front: await cut(0, half), back: await cut(half, height - half) };
}

export const selfieOf = (identity: string, n = 1): Buffer =>
  readFileSync(path.join(TESTDATA, 'faces', `${identity}__augmented-${n}.jpg`));

export function livenessOf(identity: string, kind: string): { frames: Buffer[]; challenge: string[] } {
  const lines = readFileSync(path.join(TESTDATA, 'liveness/sequences.jsonl'), 'utf8').trim().split('\n');
  const sequence = lines
    .map((l) => JSON.parse(l) as LivenessSequence)
    .find((s) => s.name.startsWith(`${identity}__`) && s.kind === kind);
  if (!sequence) throw new Error(`no ${kind} liveness sequence for ${identity}`);
  const frames: Buffer[] = sequence.frames.map((f) => readFileSync(path.join(TESTDATA, 'liveness', f)));
  // The capture API takes at least 8 frames; a short sequence is held on its last pose.
  while (frames.length < 8) frames.push(frames[frames.length - 1]);
  return { frames, challenge: sequence.challenge };
}
