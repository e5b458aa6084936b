/**
 * Compares document-check answers with labels.json (format: inference/tools/testdata/documents/README.md)
 * and sums them up: per-field exact reads, the verdict confusion per variant, portrait and address
 * rates and the time per document. Shared by `npm run eval -- --task document` and the test that
 * asserts the issue's targets, so both count the same way.
 */
import type { DocumentLabel, ExpectedFields } from '../../testdata/documents/document-labels';
import type { DocumentCheckOutput } from '../../../src/tasks';

export const FIELD_NAMES: Array<keyof ExpectedFields> = [
  'document_type',
  'document_country',
  'document_number',
  'surname',
  'given_names',
  'name',
  'birth_date',
  'expiry_date',
  'sex',
  'nationality',
];

export interface DocumentResult {
  file: string;
  variant: string;
  format: string;
  expectedReason: string | null;
  reason: string | null;
  /** Per field: read exactly? Null when the label expects no fields. */
  fields: Partial<Record<keyof ExpectedFields, boolean>> | null;
  portraitExpected: boolean;
  portraitFound: boolean;
  /** Address parts read exactly (spaces ignored), null when the document prints none. */
  address: { line1: boolean; postal_code: boolean; city: boolean } | null;
  minRowConfidence: number | null;
  ms: number;
}

function readFields(out: DocumentCheckOutput): ExpectedFields | null {
  if (!out.mrz || !out.person) return null;
  return {
    document_type: out.person.document_type,
    document_country: out.person.document_country,
    document_number: out.mrz.document_number,
    surname: out.mrz.surname,
    given_names: out.mrz.given_names,
    name: out.person.name,
    birth_date: out.mrz.birth_date,
    expiry_date: out.mrz.expiry_date,
    sex: out.mrz.sex,
    nationality: out.mrz.nationality,
  };
}

const squash = (s: string | null | undefined): string => (s ?? '').toUpperCase().replace(/\s+/g, '');

export function scoreDocument(label: DocumentLabel, out: DocumentCheckOutput, ms: number): DocumentResult {
  const read = readFields(out);
  const expected = label.expected.fields;
  const got = out.person?.address ?? null;
  const want = label.expected.address;
  return {
    file: label.file,
    variant: label.variant,
    format: label.format,
    expectedReason: label.expected.reason,
    reason: out.reason,
    fields: expected ? Object.fromEntries(FIELD_NAMES.map((f) => [f, read !== null && read[f] === expected[f]])) : null,
    portraitExpected: label.expected.portrait,
    portraitFound: out.portrait_box !== null,
    address: want
      ? {
          line1: squash(got?.line1) === squash(want.line1),
          postal_code: squash(got?.postal_code) === squash(want.postal_code),
          city: squash(got?.city) === squash(want.city),
        }
      : null,
    minRowConfidence: out.scores.find((s) => s.name === 'mrz_min_row_confidence')?.value ?? null,
    ms,
  };
}

const rate = (hits: number, total: number): number | null => (total ? hits / total : null);

function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface DocumentSummary {
  documents: number;
  /** Clean documents whose every MRZ field was read exactly. */
  clean: { count: number; allFieldsExact: number; rate: number | null; failures: string[] };
  fieldExactRates: Record<string, number | null>;
  /** variant -> reason answered (or "PASS") -> count. */
  confusion: Record<string, Record<string, number>>;
  /** Documents whose answer matched the label's reason, by variant. */
  expectedOutcomeRate: Record<string, number | null>;
  portrait: { found: number; expected: number; falseOnNoFace: number; noFace: number };
  address: { documents: number; line1: number | null; postal_code: number | null; city: number | null };
  msPerDocument: { p50: number | null; p99: number | null; max: number | null };
}

export function summariseDocuments(results: DocumentResult[]): DocumentSummary {
  const clean = results.filter((r) => r.variant === 'clean');
  const exact = (r: DocumentResult): boolean => r.fields !== null && Object.values(r.fields).every(Boolean);
  const withFields = results.filter((r) => r.fields !== null);
  const confusion: DocumentSummary['confusion'] = {};
  const byVariant = new Map<string, DocumentResult[]>();
  for (const r of results) {
    const row = (confusion[r.variant] ??= {});
    const answer = r.reason ?? 'PASS';
    row[answer] = (row[answer] ?? 0) + 1;
    byVariant.set(r.variant, [...(byVariant.get(r.variant) ?? []), r]);
  }
  const addressed = results.filter((r) => r.address !== null);
  const noFace = results.filter((r) => !r.portraitExpected);
  const withFace = results.filter((r) => r.portraitExpected);
  const ms = results.map((r) => r.ms);
  return {
    documents: results.length,
    clean: {
      count: clean.length,
      allFieldsExact: clean.filter(exact).length,
      rate: rate(clean.filter(exact).length, clean.length),
      failures: clean.filter((r) => !exact(r)).map((r) => r.file),
    },
    fieldExactRates: Object.fromEntries(
      Object.keys(withFields[0]?.fields ?? {}).map((f) => [
        f,
        rate(withFields.filter((r) => r.fields?.[f as keyof ExpectedFields]).length, withFields.length),
      ]),
    ),
    confusion,
    expectedOutcomeRate: Object.fromEntries(
      [...byVariant].map(([v, rs]) => [v, rate(rs.filter((r) => r.reason === r.expectedReason).length, rs.length)]),
    ),
    portrait: {
      found: withFace.filter((r) => r.portraitFound).length,
      expected: withFace.length,
      falseOnNoFace: noFace.filter((r) => r.portraitFound).length,
      noFace: noFace.length,
    },
    address: {
      documents: addressed.length,
      line1: rate(addressed.filter((r) => r.address?.line1).length, addressed.length),
      postal_code: rate(addressed.filter((r) => r.address?.postal_code).length, addressed.length),
      city: rate(addressed.filter((r) => r.address?.city).length, addressed.length),
    },
    msPerDocument: { p50: percentile(ms, 50), p99: percentile(ms, 99), max: percentile(ms, 100) },
  };
}

const pct = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);

export function describeDocumentSummary(s: DocumentSummary): string[] {
  return [
    `documents: ${s.documents}; clean with every MRZ field exact: ${s.clean.allFieldsExact}/${s.clean.count} (${pct(s.clean.rate)})`,
    `per-field exact reads (documents whose fields are labelled): ${Object.entries(s.fieldExactRates)
      .map(([f, r]) => `${f} ${pct(r)}`)
      .join(', ')}`,
    'verdicts by variant (answered reason: count):',
    ...Object.entries(s.confusion).map(
      ([v, row]) =>
        `  ${v.padEnd(16)} ${Object.entries(row)
          .map(([k, n]) => `${k}: ${n}`)
          .join(', ')}   (as labelled: ${pct(s.expectedOutcomeRate[v])})`,
    ),
    `portrait found: ${s.portrait.found}/${s.portrait.expected}; portrait reported on no-face documents: ${s.portrait.falseOnNoFace}/${s.portrait.noFace}`,
    `address (best effort, ${s.address.documents} documents): line1 ${pct(s.address.line1)}, postal code ${pct(s.address.postal_code)}, city ${pct(s.address.city)}`,
    `ms per document (this machine, in-process runner): p50 ${s.msPerDocument.p50?.toFixed(0)}, p99 ${s.msPerDocument.p99?.toFixed(0)}, max ${s.msPerDocument.max?.toFixed(0)}`,
    ...(s.clean.failures.length ? [`clean documents not read exactly: ${s.clean.failures.join(', ')}`] : []),
  ];
}
