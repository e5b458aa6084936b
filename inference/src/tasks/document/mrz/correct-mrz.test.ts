import { correctMrz } from './correct-mrz';
import { TD1_SPECIMEN, TD3_SPECIMEN } from './icao-specimens';
import { MRZ_LAYOUTS } from './mrz-layouts';
import { readingOf, type LineReading } from './mrz-reading';

const read = (lines: string[]): LineReading[] => lines.map((l) => readingOf(l, 0.99));

describe('field-aware MRZ correction', () => {
  it('turns letters read in dates and check digits back into digits, and digits in names into letters', () => {
    const misread = [
      TD3_SPECIMEN[0].replace('ERIKSSON', 'ERIK5S0N'),
      TD3_SPECIMEN[1].replace('7408122F1204159', '74O8I22F12O4159'),
    ];
    const out = correctMrz(MRZ_LAYOUTS.TD3, read(misread));
    expect(out.lines).toEqual(TD3_SPECIMEN);
    expect(out.checksPass).toBe(true);
    expect(out.corrections).toEqual(
      expect.arrayContaining([
        { line: 0, index: 9, from: '5', to: 'S' },
        { line: 0, index: 11, from: '0', to: 'O' },
        { line: 1, index: 15, from: 'O', to: '0' },
        { line: 1, index: 17, from: 'I', to: '1' },
        { line: 1, index: 23, from: 'O', to: '0' },
      ]),
    );
  });

  it('uses the check digits to decide between O and 0 inside an alphanumeric document number', () => {
    const misread = [TD1_SPECIMEN[0].replace('D23145890', 'D2314589O'), ...TD1_SPECIMEN.slice(1)];
    const out = correctMrz(MRZ_LAYOUTS.TD1, read(misread));
    expect(out.lines).toEqual(TD1_SPECIMEN);
    expect(out.corrections).toEqual([{ line: 0, index: 13, from: 'O', to: '0' }]);
  });

  it('keeps a letter in a document number when the check digit says it is a letter', () => {
    const out = correctMrz(MRZ_LAYOUTS.TD3, read(TD3_SPECIMEN));
    expect(out.lines[1].slice(0, 9)).toBe('L898902C3');
    expect(out.corrections).toEqual([]);
  });

  it("takes the reader's runner-up character when only it satisfies the check digits", () => {
    const lines = read([TD3_SPECIMEN[0], TD3_SPECIMEN[1].replace('7408122', '7408172')]);
    lines[1][18] = { char: '7', prob: 0.6, alternative: { char: '2', prob: 0.35 } };
    const out = correctMrz(MRZ_LAYOUTS.TD3, lines);
    expect(out.lines).toEqual(TD3_SPECIMEN);
    expect(out.corrections).toEqual([{ line: 1, index: 18, from: '7', to: '2' }]);
  });

  it('leaves a wrong check digit wrong when the reading was confident, and says which checks fail', () => {
    const tampered = [TD3_SPECIMEN[0], TD3_SPECIMEN[1].replace('7408122F', '7408125F')];
    const out = correctMrz(MRZ_LAYOUTS.TD3, read(tampered));
    expect(out.checksPass).toBe(false);
    expect(out.failedChecks).toContain('birth_date');
    expect(out.lines).toEqual(tampered);
  });

  it('refuses to guess between two fixes the check digits cannot tell apart', () => {
    // O at position 0 or 6 of the number: same 7-3-1 weight, same check digit, no evidence either way.
    const permit = ['ARNORWASHINGTON<LEE<<LIAM<<<<<<<<<<<', '037L7J00U1NOR8312310M310610939770794'];
    const out = correctMrz(MRZ_LAYOUTS.TD2, read(permit));
    expect(out.checksPass).toBe(false);
    expect(out.lines[1].slice(0, 9)).toBe('037L7J00U');
  });

  it("settles such a tie with the reader's own hesitation toward a round letter at one of the positions", () => {
    const rows = read(['ARNORWASHINGTON<LEE<<LIAM<<<<<<<<<<<', '037L7J00U1NOR8312310M310610939770794']);
    rows[1][0] = { char: '0', prob: 0.95, alternative: { char: 'D', prob: 0.41 } };
    const out = correctMrz(MRZ_LAYOUTS.TD2, rows);
    expect(out.lines[1].slice(0, 9)).toBe('O37L7J00U');
    expect(out.checksPass).toBe(true);
  });

  it('reads a hesitant 3 as the 8 its runner-up B looks like, when the check digits agree', () => {
    const permit = ['IRD<<BERGSTROEM<<CHLOE<HIROSHI<<<<<<', '8790016010D<<9907087F2708115<<<<<<<8'];
    const rows = read([permit[0], permit[1].replace(/^8/, '3')]);
    rows[1][0] = { char: '3', prob: 0.76, alternative: { char: 'B', prob: 0.21 } };
    expect(correctMrz(MRZ_LAYOUTS.TD2, rows).lines).toEqual(permit);
  });
});
