/**
 * The document check: read the MRZ with PaddleOCR (read-machine-zone.ts), correct and verify it,
 * judge it, find the portrait for face match and, on cards and permits, read the address from the
 * visual zone (best effort).
 */
import type { ModelRunner } from '../../runtime/model-runner';
import { decodeRgbImage, type RgbImage } from '../../images/decode-image';
import type { DocumentCheck, DocumentCheckInput, DocumentCheckOutput } from '../task-contracts';
import { readAddress } from './address/read-address';
import { documentOutcome, type DocumentThresholds } from './document-outcome';
import { documentTypeFromCode } from './mrz/document-type';
import { alpha2FromMrzState } from './mrz/issuing-country';
import { recognizeLines, textRecognitionModel, type RecognizedLine } from './ocr/text-recognition';
import { readMachineZone, type PageText } from './read-machine-zone';
import { findPortrait } from './portrait/find-portrait';

function thresholdsOf(runner: ModelRunner): DocumentThresholds {
  return { minRowConfidence: runner.config(textRecognitionModel).thresholds?.line_score ?? 0.5 };
}

/** How far above the MRZ the address is looked for, in MRZ row heights. */
const ADDRESS_REACH = 12;

/**
 * Cards print the address on the side that carries the MRZ (the back of a TD1 card), above it:
 * only the lines there are read for it, the rest of the visual zone is not.
 */
async function addressLines(runner: ModelRunner, image: RgbImage, page: PageText): Promise<RecognizedLine[]> {
  const row = page.firstRow;
  if (!row) return page.lines;
  const known = new Set(page.lines.map((l) => l.box));
  const above = page.boxes.filter((b) => !known.has(b) && b.cy < row.cy && row.cy - b.cy < ADDRESS_REACH * row.height);
  return [...page.lines, ...(await recognizeLines(runner, image, above))];
}

export const verifyDocument: DocumentCheck = async (
  runner: ModelRunner,
  input: DocumentCheckInput,
): Promise<DocumentCheckOutput> => {
  const now = input.now ?? new Date();
  const image = await decodeRgbImage(input.image, { what: 'document image' });
  const [page, portrait] = await Promise.all([
    readMachineZone(runner, image, now, input.declaredType),
    findPortrait(runner, image),
  ]);
  const read = page.read;
  const outcome = documentOutcome(read, now, thresholdsOf(runner));
  const fields = read?.parsed.fields ?? null;
  const unreadable = outcome.reason === 'DOCUMENT_UNREADABLE';
  const documentType = fields ? documentTypeFromCode(fields.document_code) : null;
  let person: DocumentCheckOutput['person'] = null;
  if (fields && documentType && !unreadable) {
    const country = alpha2FromMrzState(fields.issuing_state);
    const address = documentType === 'passport' ? null : readAddress(await addressLines(runner, image, page), country);
    person = {
      name: [fields.given_names, fields.surname].filter(Boolean).join(' ').replace(/\s+/g, ' '),
      dob: fields.birth_date,
      document_type: documentType,
      // Issuers without an ISO country (UN, EU, stateless documents) leave it empty, said in detail.
      document_country: country ?? '',
      document_number: fields.document_number,
      expiry_date: fields.expiry_date,
      sex: fields.sex,
      address,
      address_is_best_effort: address !== null,
    };
  }
  const portraitNote = portrait ? '' : '; no portrait face found';
  const countryNote =
    person && !person.document_country ? `; issuer ${fields?.issuing_state} has no ISO 3166 country` : '';
  return {
    ...outcome,
    detail: outcome.detail + portraitNote + countryNote,
    mrz: unreadable ? null : fields,
    raw_mrz_lines: read?.rawLines ?? [],
    person,
    portrait_box: portrait?.box ?? null,
    portrait_jpeg: portrait?.jpeg ?? null,
  };
};
