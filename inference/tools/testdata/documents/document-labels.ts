/**
 * labels.json: what a correct document check answers for each image. The format is documented in
 * README.md so that engineers can label their own documents and run `npm run eval -- --task document`.
 */
export type DocumentVariant = 'clean' | 'bad-check-digit' | 'expired' | 'blurred-mrz' | 'no-face';

export interface ExpectedFields {
  document_type: 'passport' | 'id_card' | 'driving_licence' | 'residence_permit';
  document_country: string;
  document_number: string;
  surname: string;
  given_names: string;
  /** Given names then surname, single-spaced, as the contract's person.name. */
  name: string;
  birth_date: string;
  expiry_date: string;
  sex: 'M' | 'F' | 'X';
  nationality: string;
}

export interface DocumentLabel {
  /** Image path, relative to labels.json. */
  file: string;
  variant: DocumentVariant;
  format: 'TD1' | 'TD2' | 'TD3';
  /** The MRZ exactly as printed. */
  mrz_lines: string[];
  expected: {
    verdict: 'PASS' | 'FAIL';
    reason: 'DOCUMENT_UNREADABLE' | 'DOCUMENT_INVALID' | 'DOCUMENT_EXPIRED' | null;
    /** Null where the fields cannot be expected (an unreadable MRZ). */
    fields: ExpectedFields | null;
    /** Whether a portrait is printed on the document. */
    portrait: boolean;
    /** The printed address (ID cards), or null. */
    address: { line1: string; postal_code: string; city: string } | null;
  };
  /** How the synthetic image was made, for reading failures. */
  generation?: Record<string, unknown>;
}

/**
 * The type an applicant holding the document would choose, which the capture API passes on as the
 * declared type. Where the zone is unreadable by design, its format says it: every TD3 here is a
 * passport, and only whether a passport was declared steers the read.
 */
export function declaredTypeOf(label: DocumentLabel): ExpectedFields['document_type'] {
  return label.expected.fields?.document_type ?? (label.format === 'TD3' ? 'passport' : 'id_card');
}

export interface DocumentLabels {
  /** The date the documents are judged at (passed as `now`), so expiry verdicts never drift. */
  reference_date: string;
  generator_version?: string;
  documents: DocumentLabel[];
}
