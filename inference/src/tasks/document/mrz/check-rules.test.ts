import { checkDigit } from './check-digit';
import { allChecksPass, evaluateChecks } from './check-rules';
import { TD1_SPECIMEN, TD2_SPECIMEN, TD3_SPECIMEN } from './icao-specimens';
import { MRZ_LAYOUTS } from './mrz-layouts';

describe('ICAO 9303 check digits', () => {
  it('weights 7-3-1 with letters as 10-35 and fillers as 0', () => {
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('120415')).toBe('9');
    expect(checkDigit('ZE184226B<<<<<')).toBe('1');
  });

  it('accepts the ICAO specimens of all three formats', () => {
    expect(allChecksPass(MRZ_LAYOUTS.TD3, TD3_SPECIMEN)).toBe(true);
    expect(allChecksPass(MRZ_LAYOUTS.TD2, TD2_SPECIMEN)).toBe(true);
    expect(allChecksPass(MRZ_LAYOUTS.TD1, TD1_SPECIMEN)).toBe(true);
  });

  it('names the rule that a changed birth-date digit breaks, and the composite with it', () => {
    const lines = [TD3_SPECIMEN[0], TD3_SPECIMEN[1].replace('7408122', '7408132')];
    const failed = evaluateChecks(MRZ_LAYOUTS.TD3, lines)
      .filter((r) => !r.ok)
      .map((r) => r.name);
    expect(failed).toEqual(['birth_date', 'composite']);
  });

  it('checks a TD1 document number longer than nine characters through its overflow in optional data', () => {
    const number = 'D23145890123';
    const overflow = number.slice(9) + checkDigit(number);
    const line1 = `I<UTO${number.slice(0, 9)}<${overflow}`.padEnd(30, '<');
    const line2Body = `7408122F1204159UTO<<<<<<<<<<<`;
    const composite = checkDigit(
      line1.slice(5, 30) + line2Body.slice(0, 7) + line2Body.slice(8, 15) + line2Body.slice(18, 29),
    );
    const lines = [line1, line2Body + composite, TD1_SPECIMEN[2]];
    expect(allChecksPass(MRZ_LAYOUTS.TD1, lines)).toBe(true);
    expect(allChecksPass(MRZ_LAYOUTS.TD1, [line1.replace('<123', '<124'), lines[1], lines[2]])).toBe(false);
  });

  it('lets an all-filler personal number carry a filler check digit in a passport', () => {
    const line2 = 'L898902C36UTO7408122F1204159' + '<'.repeat(15);
    const withComposite = line2 + checkDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 43));
    expect(allChecksPass(MRZ_LAYOUTS.TD3, [TD3_SPECIMEN[0], withComposite])).toBe(true);
  });
});
