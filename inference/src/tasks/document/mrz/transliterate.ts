/**
 * ICAO 9303 part 3, section 6: names in the MRZ use A-Z only. German umlauts and Nordic letters
 * have multi-letter equivalents, other accents are dropped, apostrophes vanish, and spaces and
 * hyphens become fillers.
 */
const SPECIAL: Readonly<Record<string, string>> = {
  Ä: 'AE',
  Ö: 'OE',
  Ü: 'UE',
  ß: 'SS',
  Ø: 'OE',
  Å: 'AA',
  Æ: 'AE',
  Ł: 'L',
  Đ: 'D',
  Þ: 'TH',
  İ: 'I',
};

export function transliterate(name: string): string {
  return [...name.toUpperCase()]
    .map((c) => SPECIAL[c] ?? c.normalize('NFD').replace(/[\u0300-\u036f]/g, ''))
    .join('')
    .replace(/['’.]/g, '')
    .replace(/[\s-]+/g, '<')
    .replace(/[^A-Z<]/g, '');
}

/** The MRZ name field: surname, '<<', given names, cut and padded to the field width. */
export function mrzNameField(surname: string, givenNames: string, width: number): string {
  return `${transliterate(surname)}<<${transliterate(givenNames)}`.slice(0, width).padEnd(width, '<');
}
