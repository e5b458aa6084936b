/**
 * How each variant departs from a clean document, and the verdict it must get. The plan (how many
 * of each) lives in generate-documents.ts.
 */
import type { DocumentLabel, DocumentVariant } from './document-labels';
import type { SyntheticIdentity } from './synthetic-identity';
import { MRZ_LAYOUTS, type MrzFormat } from '../../../src/tasks';

/** An expired document: expiry between a day and five years before the reference date. */
export function expire(id: SyntheticIdentity, referenceDate: string, random: () => number): SyntheticIdentity {
  const days = 1 + Math.floor(random() * 5 * 365);
  const expiry = new Date(Date.parse(`${referenceDate}T00:00:00Z`) - days * 86_400_000);
  const issue = new Date(expiry);
  issue.setUTCFullYear(expiry.getUTCFullYear() - 10);
  return {
    ...id,
    expiryDate: expiry.toISOString().slice(0, 10),
    issueDate: issue.toISOString().slice(0, 10),
  };
}

/**
 * Replaces one check digit with another digit (the `which`-th rule of the layout, cycling through
 * them), as a forged or mistyped MRZ would carry. Returns the changed lines and the rule's name.
 */
export function breakCheckDigit(
  format: MrzFormat,
  lines: string[],
  which: number,
  random: () => number,
): { lines: string[]; rule: string } {
  const rules = MRZ_LAYOUTS[format].checks.filter((r) => lines[r.at.line][r.at.index] !== '<');
  const rule = rules[which % rules.length];
  const current = lines[rule.at.line][rule.at.index];
  const replacement = String((Number(current) + 1 + Math.floor(random() * 9)) % 10);
  const out = [...lines];
  const l = out[rule.at.line];
  out[rule.at.line] = l.slice(0, rule.at.index) + replacement + l.slice(rule.at.index + 1);
  return { lines: out, rule: rule.name };
}

export function expectedOutcome(variant: DocumentVariant): Pick<DocumentLabel['expected'], 'verdict' | 'reason'> {
  switch (variant) {
    case 'clean':
    case 'no-face':
      return { verdict: 'PASS', reason: null };
    case 'bad-check-digit':
      return { verdict: 'FAIL', reason: 'DOCUMENT_INVALID' };
    case 'expired':
      return { verdict: 'FAIL', reason: 'DOCUMENT_EXPIRED' };
    case 'blurred-mrz':
      return { verdict: 'FAIL', reason: 'DOCUMENT_UNREADABLE' };
  }
}
