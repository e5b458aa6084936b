/**
 * The document check: find and read the MRZ with PaddleOCR (detection, then recognition of the
 * lines shaped like MRZ rows), correct and verify it, judge it, and find the portrait for face
 * match. Only long lines are recognised at first, since the MRZ rows are the page's longest; the
 * rest of the page is read only when no MRZ turned up, or for the address on cards and permits.
 */
import type { ModelRunner } from '../../runtime/model-runner';
import { decodeRgb, type RgbImage } from '../face/rgb-image';
import type { DocumentCheck, DocumentCheckInput, DocumentCheckOutput } from '../task-contracts';
import { readAddress } from './address/read-address';
import { documentOutcome, type DocumentThresholds } from './document-outcome';
import { documentTypeFromCode } from './mrz/document-type';
import { alpha2FromMrzState } from './mrz/issuing-country';
import { readMrz, type MrzRead } from './mrz/read-mrz';
import { findMrzCandidates } from './ocr/find-mrz-lines';
import type { TextBox } from './ocr/text-box';
import { detectText } from './ocr/text-detection';
import { recognizeLines, textRecognitionModel, type RecognizedLine } from './ocr/text-recognition';
import { findPortrait } from './portrait/find-portrait';

/** Boxes at least this many times longer than tall are read first: every MRZ row is (~20-30x). */
const MRZ_MIN_ASPECT = 8;

function thresholdsOf(runner: ModelRunner): DocumentThresholds {
  return { minRowConfidence: runner.config(textRecognitionModel).thresholds?.line_score ?? 0.5 };
}

/**
 * Tries each MRZ candidate, bottom first, re-reading rows that the detector cut short across the
 * zone's full width; the first whose check digits hold wins, else the first that parsed at all.
 */
async function readZone(runner: ModelRunner, image: RgbImage, lines: RecognizedLine[], now: Date): Promise<MrzRead | null> {
  let fallback: MrzRead | null = null;
  for (const candidate of findMrzCandidates(lines)) {
    const short = candidate.rows.filter((r) => r.short);
    const reread = short.length ? await recognizeLines(runner, image, short.map((r) => r.fullBox)) : [];
    const readings = candidate.rows.map((r) => (r.short ? reread[short.indexOf(r)].mrz : r.reading));
    const read = readMrz(candidate.layout, readings, now);
    if (read?.parsed.fields.check_digits_valid) return read;
    fallback ??= read;
  }
  return fallback;
}

async function readPage(runner: ModelRunner, image: RgbImage, now: Date): Promise<{ read: MrzRead | null; lines: RecognizedLine[]; boxes: TextBox[] }> {
  const boxes = await detectText(runner, image);
  const long = boxes.filter((b) => b.width >= MRZ_MIN_ASPECT * b.height);
  let lines = await recognizeLines(runner, image, long);
  let read = await readZone(runner, image, lines, now);
  if (!read?.parsed.fields.check_digits_valid) {
    const rest = boxes.filter((b) => !long.includes(b));
    lines = [...lines, ...(await recognizeLines(runner, image, rest))];
    read = (await readZone(runner, image, lines, now)) ?? read;
  }
  return { read, lines, boxes };
}

/** Visual-zone lines above the MRZ (where cards print the address), read only for cards and permits. */
async function addressLines(runner: ModelRunner, image: RgbImage, boxes: TextBox[], lines: RecognizedLine[]): Promise<RecognizedLine[]> {
  const known = new Set(lines.map((l) => l.box));
  const unread = boxes.filter((b) => !known.has(b));
  return [...lines, ...(await recognizeLines(runner, image, unread))];
}

export const verifyDocument: DocumentCheck = async (runner: ModelRunner, input: DocumentCheckInput): Promise<DocumentCheckOutput> => {
  const now = input.now ?? new Date();
  const image = await decodeRgb(input.image);
  const [{ read, lines, boxes }, portrait] = await Promise.all([readPage(runner, image, now), findPortrait(runner, image)]);
  const outcome = documentOutcome(read, now, thresholdsOf(runner));
  const fields = read?.parsed.fields ?? null;
  const unreadable = outcome.reason === 'DOCUMENT_UNREADABLE';
  const documentType = fields ? documentTypeFromCode(fields.document_code) : null;
  let person: DocumentCheckOutput['person'] = null;
  if (fields && documentType && !unreadable) {
    const country = alpha2FromMrzState(fields.issuing_state);
    const address = documentType === 'passport' ? null : readAddress(await addressLines(runner, image, boxes, lines), country);
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
  const countryNote = person && !person.document_country ? `; issuer ${fields?.issuing_state} has no ISO 3166 country` : '';
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
