/**
 * `npm run testdata:documents`: writes synthetic passports (TD3), ID cards (TD1, front and back)
 * and residence permits (TD2) with real portraits and OCR-B MRZs, plus the variants the document
 * check must catch, to .state/testdata/documents/ with labels.json. Seeded and idempotent: it does
 * nothing when labels.json already comes from this generator version.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'mrz';
import { loadPortrait } from '../faces/augment-face';
import { faceSources } from '../faces/face-sources';
import { seededRandom, seedOf } from '../../../../scripts/test-support/seeded-random';
import { composeMrz } from './compose-mrz';
import type { DocumentLabel, DocumentLabels, DocumentVariant, ExpectedFields } from './document-labels';
import { documentSides } from './document-layouts';
import { breakCheckDigit, expectedOutcome, expire } from './document-variants';
import { renderDocument } from './render-document';
import { drawIdentity, type SyntheticIdentity } from './synthetic-identity';
import type { MrzFormat } from '../../../src/tasks';

/** Bump when the output would change, so stale sets are rebuilt. */
const GENERATOR_VERSION = '3';
export const REFERENCE_DATE = '2026-11-01';

const repoRoot = path.resolve(__dirname, '../../../..');
export const documentTestdataDir = path.join(repoRoot, '.state/testdata/documents');
/** `--held-out`: clean documents drawn apart from the 180, for a change chosen on those. */
export const heldOutDocumentTestdataDir = path.join(repoRoot, '.state/testdata/documents-heldout');
const assetsDir = path.join(repoRoot, '.state/assets/debian');

interface PlanRow {
  format: MrzFormat;
  kind: string;
  codes: string[];
  variant: DocumentVariant;
  count: number;
}

/** 120 clean documents make a 99 % target mean "at most one miss"; variants cover each format. */
const PLAN: PlanRow[] = [
  { format: 'TD3', kind: 'passport', codes: ['P'], variant: 'clean', count: 60 },
  { format: 'TD1', kind: 'id-card', codes: ['I', 'ID', 'C'], variant: 'clean', count: 45 },
  { format: 'TD2', kind: 'residence-permit', codes: ['IR', 'AR'], variant: 'clean', count: 15 },
  { format: 'TD3', kind: 'passport', codes: ['P'], variant: 'bad-check-digit', count: 10 },
  { format: 'TD1', kind: 'id-card', codes: ['I', 'ID'], variant: 'bad-check-digit', count: 8 },
  { format: 'TD2', kind: 'residence-permit', codes: ['IR'], variant: 'bad-check-digit', count: 4 },
  { format: 'TD3', kind: 'passport', codes: ['P'], variant: 'expired', count: 7 },
  { format: 'TD1', kind: 'id-card', codes: ['I', 'ID'], variant: 'expired', count: 6 },
  { format: 'TD2', kind: 'residence-permit', codes: ['IR'], variant: 'expired', count: 3 },
  { format: 'TD3', kind: 'passport', codes: ['P'], variant: 'blurred-mrz', count: 6 },
  { format: 'TD1', kind: 'id-card', codes: ['I'], variant: 'blurred-mrz', count: 6 },
  { format: 'TD3', kind: 'passport', codes: ['P'], variant: 'no-face', count: 5 },
  { format: 'TD1', kind: 'id-card', codes: ['ID'], variant: 'no-face', count: 5 },
];

/**
 * The held-out set: clean documents only (40 TD3, 30 TD1, 10 TD2), named and so seeded from
 * index 501 on, so no identity or layout draw repeats one of the 180. A change picked by its
 * scores on the 180 (a threshold, a calibration) is checked here before it is served.
 */
const HELD_OUT_PLAN: PlanRow[] = [
  { format: 'TD3', kind: 'passport', codes: ['P'], variant: 'clean', count: 40 },
  { format: 'TD1', kind: 'id-card', codes: ['I', 'ID', 'C'], variant: 'clean', count: 30 },
  { format: 'TD2', kind: 'residence-permit', codes: ['IR', 'AR'], variant: 'clean', count: 10 },
];
const HELD_OUT_FIRST_INDEX = 501;

/** Portrait sources fit for a document photo (one frontal face, no drawn-on landmarks). */
const PORTRAIT_IDENTITIES = ['astronaut', 'grace-hopper', 'bearded-man', 'mona-lisa', 'messi', 'yale-subject'];

const DOCUMENT_TYPE = {
  passport: 'passport',
  'id-card': 'id_card',
  'residence-permit': 'residence_permit',
} as const;

function expectedFields(kind: string, id: SyntheticIdentity, lines: string[], format: MrzFormat): ExpectedFields {
  const nameField = format === 'TD1' ? lines[2] : lines[0].slice(5);
  const [surnamePart, ...givenParts] = nameField.split('<<');
  const clean = (s: string): string => s.replace(/</g, ' ').replace(/\s+/g, ' ').trim();
  const surname = clean(surnamePart);
  const given = clean(givenParts.join(' '));
  return {
    document_type: DOCUMENT_TYPE[kind as keyof typeof DOCUMENT_TYPE],
    document_country: id.issuer.alpha2,
    document_number: id.documentNumber,
    surname,
    given_names: given,
    name: [given, surname].filter(Boolean).join(' '),
    birth_date: id.birthDate,
    expiry_date: id.expiryDate,
    sex: id.sex,
    nationality: id.nationality.icao,
  };
}

/** The independent `mrz` package must agree with the check digits we meant to print. */
function confirmWithPackage(lines: string[], expectValid: boolean, file: string): void {
  const result = parse(lines);
  const checksValid = result.details.filter((d) => d.field?.endsWith('CheckDigit')).every((d) => d.valid);
  if (checksValid !== expectValid)
    throw new Error(
      `${file}: mrz package says check digits ${checksValid ? 'valid' : 'invalid'}: ${lines.join(' / ')}`,
    );
}

async function makeDocument(
  row: PlanRow,
  index: number,
  portraits: Map<string, Buffer>,
  heldOut: boolean,
): Promise<{ label: DocumentLabel; jpeg: Buffer }> {
  const number = String(index + (heldOut ? HELD_OUT_FIRST_INDEX : 1)).padStart(3, '0');
  const name = `${heldOut ? 'heldout' : 'synthetic'}-${row.format.toLowerCase()}-${row.kind}-${row.variant}-${number}`;
  const random = seededRandom(seedOf(name));
  let id = drawIdentity(random, REFERENCE_DATE);
  if (row.variant === 'expired') id = expire(id, REFERENCE_DATE, random);
  const code = row.codes[index % row.codes.length];
  const printed = composeMrz(row.format, code, id);
  const file = `${name}.jpg`;
  confirmWithPackage(printed, true, file);
  let lines = printed;
  let brokenRule: string | undefined;
  if (row.variant === 'bad-check-digit') {
    ({ lines, rule: brokenRule } = breakCheckDigit(row.format, printed, index, random));
    confirmWithPackage(lines, false, file);
  }
  const portraitIdentity = PORTRAIT_IDENTITIES[index % PORTRAIT_IDENTITIES.length];
  const capture = {
    rotationDegrees: Math.round((random() * 3 - 1.5) * 100) / 100,
    brightness: Math.round((0.9 + random() * 0.2) * 100) / 100,
    jpegQuality: 80 + Math.floor(random() * 16),
    surfaceGrey: 90 + Math.floor(random() * 120),
  };
  const mrzBlurSigma = row.variant === 'blurred-mrz' ? 6 + Math.round(random() * 4) : 0;
  const jpeg = await renderDocument({
    sides: documentSides(row.format, code, id, random),
    mrzLines: lines,
    portrait: row.variant === 'no-face' ? null : portraits.get(portraitIdentity)!,
    mrzBlurSigma,
    capture,
  });
  const outcome = expectedOutcome(row.variant);
  const label: DocumentLabel = {
    file,
    variant: row.variant,
    format: row.format,
    mrz_lines: lines,
    expected: {
      ...outcome,
      fields: row.variant === 'blurred-mrz' ? null : expectedFields(row.kind, id, lines, row.format),
      portrait: row.variant !== 'no-face',
      address:
        row.format === 'TD1'
          ? { line1: id.address.line1, postal_code: id.address.postalCode, city: id.address.city }
          : null,
    },
    generation: {
      document_code: code,
      portrait: row.variant === 'no-face' ? null : portraitIdentity,
      ...capture,
      mrz_blur_sigma: mrzBlurSigma,
      broken_check: brokenRule ?? null,
    },
  };
  return { label, jpeg };
}

export async function generateDocumentTestdata({ heldOut = false } = {}): Promise<DocumentLabels> {
  const dir = heldOut ? heldOutDocumentTestdataDir : documentTestdataDir;
  const plan = heldOut ? HELD_OUT_PLAN : PLAN;
  const labelsPath = path.join(dir, 'labels.json');
  if (existsSync(labelsPath)) {
    const existing = JSON.parse(await readFile(labelsPath, 'utf8')) as DocumentLabels;
    if (existing.generator_version === GENERATOR_VERSION) return existing;
  }
  if (!existsSync(path.join(assetsDir, '.complete')))
    throw new Error('Debian assets missing: run `bash scripts/fetch-debian-assets.sh` first');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const portraits = new Map<string, Buffer>();
  for (const identity of PORTRAIT_IDENTITIES) {
    const source = faceSources.find((s) => s.identity === identity);
    if (!source) throw new Error(`face source "${identity}" is not in inference/tools/testdata/faces/face-sources.ts`);
    portraits.set(identity, await loadPortrait(assetsDir, source));
  }
  const documents: DocumentLabel[] = [];
  for (const row of plan) {
    for (let i = 0; i < row.count; i++) {
      const { label, jpeg } = await makeDocument(row, i, portraits, heldOut);
      await writeFile(path.join(dir, label.file), jpeg);
      documents.push(label);
    }
  }
  const labels: DocumentLabels = {
    reference_date: REFERENCE_DATE,
    generator_version: GENERATOR_VERSION,
    documents,
  };
  // labels.json is written last: its presence marks a complete set.
  await writeFile(labelsPath, JSON.stringify(labels, null, 1) + '\n');
  const counts = plan.map((r) => `${r.count} ${r.format} ${r.variant}`).join(', ');
  console.log(`documents: ${documents.length} synthetic images (${counts}) in ${dir}`);
  return labels;
}

if (require.main === module) {
  generateDocumentTestdata({ heldOut: process.argv.includes('--held-out') }).catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
