/**
 * The contract's name cross-check: case, diacritics, punctuation and name order are ignored, and a
 * name read from the MRZ matches its original spelling whichever ICAO 9303 transliteration the
 * issuer used (Núñez → NUNEZ; Müller → MUELLER or MULLER; `<` fillers are separators).
 */
const ICAO_EXPANSIONS: Array<[RegExp, string]> = [
  [/Ä|Æ/g, 'AE'],
  [/Ö|Ø|Œ/g, 'OE'],
  [/Ü/g, 'UE'],
  [/ß/g, 'SS'],
  [/Å/g, 'AA'],
  [/Þ/g, 'TH'],
  [/Ð/g, 'D'],
  [/Ĳ/g, 'IJ'],
];

function words(name: string): string[] {
  return name
    .replace(/[<\p{P}\p{S}\s]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

const stripMarks = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '');

/** Every spelling a name may take in an MRZ, as sorted token lists joined by spaces. */
export function nameForms(name: string): Set<string> {
  const upper = name.normalize('NFC').toUpperCase();
  let expanded = upper;
  for (const [pattern, replacement] of ICAO_EXPANSIONS) expanded = expanded.replace(pattern, replacement);
  const forms = [stripMarks(upper).replace(/ß/g, 'SS'), stripMarks(expanded)];
  return new Set(forms.map((form) => words(form).sort().join(' ')));
}

export function namesMatch(expected: string, read: string): boolean {
  const readForms = nameForms(read);
  return [...nameForms(expected)].some((form) => readForms.has(form));
}
