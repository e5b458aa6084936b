import countries from 'i18n-iso-countries';

/** ICAO 9303 codes that are not ISO 3166 alpha-3 (part 3, §5): Germany's D and the UN/EU codes. */
const ICAO_SPECIAL: Record<string, string> = { D: 'DE', UNO: 'UN', UNA: 'UN', UNK: 'XK', EUE: 'EU' };

/** The ISO alpha-2 code of an MRZ issuing state, as CSCA certificates name their country. */
export function alpha2OfIcao(code: string): string {
  return ICAO_SPECIAL[code] ?? countries.alpha3ToAlpha2(code) ?? code;
}
