import { documentOutcome } from './document-outcome';
import { checkDigit } from './mrz/check-digit';
import { MRZ_LAYOUTS } from './mrz/mrz-layouts';
import { readingOf } from './mrz/mrz-reading';
import { readMrz } from './mrz/read-mrz';

const NOW = new Date('2026-11-01T00:00:00Z');
const thresholds = { minRowConfidence: 0.5 };

function passport(expiry: string, birthCheck?: string, prob = 0.95) {
  const birth = '740812';
  const body = `L898902C36FRA${birth}${birthCheck ?? checkDigit(birth)}F${expiry}${checkDigit(expiry)}<<<<<<<<<<<<<<<`;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  const lines = ['P<FRAERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', body + composite];
  return readMrz(
    MRZ_LAYOUTS.TD3,
    lines.map((l) => [readingOf(l, prob)]),
    NOW,
  );
}

describe('the document verdict', () => {
  it('passes a valid, unexpired MRZ and shows every score with its line', () => {
    const out = documentOutcome(passport('320415'), NOW, thresholds);
    expect(out).toMatchObject({ verdict: 'PASS', reason: null });
    expect(out.scores.map((s) => [s.name, s.threshold, s.comparison])).toEqual([
      ['mrz_min_row_confidence', 0.5, 'gte'],
      ['mrz_check_digits_passed', 1, 'gte'],
      ['days_to_expiry', 0, 'gte'],
    ]);
  });

  it('answers DOCUMENT_UNREADABLE when no MRZ was read, or read below the confidence line', () => {
    expect(documentOutcome(null, NOW, thresholds).reason).toBe('DOCUMENT_UNREADABLE');
    expect(documentOutcome(passport('320415', undefined, 0.4), NOW, thresholds).reason).toBe('DOCUMENT_UNREADABLE');
  });

  it('answers DOCUMENT_INVALID for a wrong check digit even when the document has also expired', () => {
    const out = documentOutcome(passport('200415', '5'), NOW, thresholds);
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'DOCUMENT_INVALID' });
    expect(out.detail).toContain('birth_date');
  });

  it('answers DOCUMENT_EXPIRED the day after the expiry date, not on it', () => {
    expect(documentOutcome(passport('261101'), NOW, thresholds).verdict).toBe('PASS');
    expect(documentOutcome(passport('261031'), NOW, thresholds)).toMatchObject({
      verdict: 'FAIL',
      reason: 'DOCUMENT_EXPIRED',
    });
  });
});
