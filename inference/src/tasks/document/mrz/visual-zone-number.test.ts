import { checkDigit } from './check-digit';
import { MRZ_LAYOUTS } from './mrz-layouts';
import { readingOf } from './mrz-reading';
import { readMrz } from './read-mrz';
import { confirmNumberFromVisualZone } from './visual-zone-number';

const NOW = new Date('2026-11-01T00:00:00Z');

function passport(number: string, numberCheck = checkDigit(number)): string[] {
  const body = `${number}${numberCheck}FRA7408122F320415${checkDigit('320415')}<<<<<<<<<<<<<<<`;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return ['P<FRAERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', body + composite];
}

const read = (lines: string[]) =>
  readMrz(
    MRZ_LAYOUTS.TD3,
    lines.map((l) => [readingOf(l, 0.95)]),
    NOW,
  )!;

describe('the visual zone as a second witness for the document number', () => {
  const printed = passport('X83451277');
  const misread = [printed[0], printed[1].replace('X834', 'X334')];

  it('settles a digit misread in the MRZ with the number printed in the visual zone', () => {
    const before = read(misread);
    expect(before.parsed.fields.check_digits_valid).toBe(false);
    const after = confirmNumberFromVisualZone(before, ['PASSPORT', 'X83451277', '12 AUG 1974'], NOW);
    expect(after?.corrected.lines).toEqual(printed);
    expect(after?.parsed.fields.corrections).toEqual([{ line: 1, index: 1, from: '3', to: '8' }]);
  });

  it('ignores visual-zone text that is not close to the number read in the MRZ', () => {
    expect(confirmNumberFromVisualZone(read(misread), ['12AUG1974', 'ERIKSSON'], NOW)).toBeNull();
  });

  it('does not repair a wrong check digit when the visual zone shows the same number', () => {
    const forged = passport('X83451277', String((Number(checkDigit('X83451277')) + 3) % 10));
    expect(confirmNumberFromVisualZone(read(forged), ['X83451277'], NOW)).toBeNull();
  });
});
