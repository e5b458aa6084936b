/**
 * The verdict of the document check from what was read, in the contract's order of precedence:
 * DOCUMENT_UNREADABLE (no MRZ, or one read too unsurely to judge), DOCUMENT_INVALID (check digits,
 * impossible fields, not an identity document), DOCUMENT_EXPIRED. Every score comes with the line
 * it was held to.
 */
import type { CheckOutcome, ScoreEvidence } from '../task-contracts';
import { documentTypeFromCode } from './mrz/document-type';
import { isExpired } from './mrz/mrz-dates';
import type { MrzRead } from './mrz/read-mrz';

export interface DocumentThresholds {
  /** Lowest acceptable mean character probability of the weakest MRZ row. */
  minRowConfidence: number;
}

const DAY_MS = 86_400_000;

export function documentOutcome(read: MrzRead | null, now: Date, t: DocumentThresholds): CheckOutcome {
  if (!read) {
    return {
      verdict: 'FAIL',
      reason: 'DOCUMENT_UNREADABLE',
      detail: 'no machine-readable zone was found or read',
      scores: [],
    };
  }
  const { fields, invalidFields } = read.parsed;
  const checks = read.layout.checks.length;
  // The mrz package is the second judge: if it rejects what our rules accepted, count one failure.
  const failed = Math.max(read.corrected.failedChecks.length, fields.check_digits_valid ? 0 : 1);
  const scores: ScoreEvidence[] = [
    {
      name: 'mrz_min_row_confidence',
      value: read.minRowConfidence,
      threshold: t.minRowConfidence,
      comparison: 'gte',
    },
    { name: 'mrz_check_digits_passed', value: (checks - failed) / checks, threshold: 1, comparison: 'gte' },
  ];
  if (read.minRowConfidence < t.minRowConfidence) {
    return {
      verdict: 'FAIL',
      reason: 'DOCUMENT_UNREADABLE',
      detail: `the MRZ was read too unsurely to judge (weakest row ${read.minRowConfidence.toFixed(2)})`,
      scores,
    };
  }
  // Every document code starts with a letter: anything else means the row was misread, not forged.
  if (!/^[A-Z]/.test(fields.document_code)) {
    return {
      verdict: 'FAIL',
      reason: 'DOCUMENT_UNREADABLE',
      detail: 'the MRZ document code could not be read',
      scores,
    };
  }
  if (!fields.check_digits_valid) {
    const which = read.corrected.failedChecks.join(', ') || 'as judged by the mrz parser';
    return { verdict: 'FAIL', reason: 'DOCUMENT_INVALID', detail: `MRZ check digits fail: ${which}`, scores };
  }
  if (invalidFields.length > 0) {
    return {
      verdict: 'FAIL',
      reason: 'DOCUMENT_INVALID',
      detail: `MRZ fields are impossible: ${invalidFields.join(', ')}`,
      scores,
    };
  }
  if (!documentTypeFromCode(fields.document_code)) {
    return {
      verdict: 'FAIL',
      reason: 'DOCUMENT_INVALID',
      detail: `document code ${fields.document_code} is not an identity document`,
      scores,
    };
  }
  const daysToExpiry = Math.floor(
    (Date.parse(`${fields.expiry_date}T00:00:00Z`) - Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`)) /
      DAY_MS,
  );
  scores.push({ name: 'days_to_expiry', value: daysToExpiry, threshold: 0, comparison: 'gte' });
  if (isExpired(fields.expiry_date, now)) {
    return {
      verdict: 'FAIL',
      reason: 'DOCUMENT_EXPIRED',
      detail: 'the document is past its expiry date',
      scores,
    };
  }
  return {
    verdict: 'PASS',
    reason: null,
    detail: `${read.layout.format} MRZ read, all check digits valid`,
    scores,
  };
}
