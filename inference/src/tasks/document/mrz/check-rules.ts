/** Evaluates a layout's check digits on a set of MRZ lines. */
import { checkDigit, isMrzText } from './check-digit';
import type { CheckRule, MrzLayout, Span } from './mrz-layouts';

export interface CheckResult {
  name: string;
  ok: boolean;
}

const text = (lines: string[], spans: Span[]): string => spans.map((s) => lines[s.line].slice(s.start, s.end)).join('');

/**
 * TD1 numbers longer than nine characters: position 14 holds '<', the rest of the number follows in
 * optional data 1 and its last character before the first filler is the check digit (9303-5, 4.2.2).
 */
function longTd1DocumentNumberOk(lines: string[]): boolean {
  const overflow = lines[0].slice(15, 30).split('<')[0];
  if (overflow.length < 2) return false;
  const number = lines[0].slice(5, 14) + overflow.slice(0, -1);
  return checkDigit(number) === overflow.slice(-1);
}

function ruleOk(layout: MrzLayout, rule: CheckRule, lines: string[]): boolean {
  const digit = lines[rule.at.line][rule.at.index];
  const covered = text(lines, rule.over);
  if (!isMrzText(covered) || !isMrzText(digit)) return false;
  if (digit === '<') {
    if (layout.format === 'TD1' && rule.name === 'document_number') return longTd1DocumentNumberOk(lines);
    return Boolean(rule.fillerAllowedWhenEmpty) && /^<*$/.test(covered);
  }
  return checkDigit(covered) === digit;
}

export function evaluateChecks(layout: MrzLayout, lines: string[]): CheckResult[] {
  return layout.checks.map((rule) => ({ name: rule.name, ok: ruleOk(layout, rule, lines) }));
}

export function allChecksPass(layout: MrzLayout, lines: string[]): boolean {
  return layout.checks.every((rule) => ruleOk(layout, rule, lines));
}
