/**
 * ICAO 9303 state codes are ISO 3166-1 alpha-3 with exceptions: Germany is "D", British nationality
 * classes are GBD/GBN/GBO/GBP/GBS, Kosovo is RKS (or XXK), and organisations (EUE, UNO, XOM...)
 * or statuses (XXA stateless, XXB/XXC refugee, XXX unspecified) have no country at all.
 */
import countries from 'i18n-iso-countries';

const ICAO_SPECIAL: Readonly<Record<string, string>> = {
  D: 'DE',
  GBD: 'GB',
  GBN: 'GB',
  GBO: 'GB',
  GBP: 'GB',
  GBS: 'GB',
  RKS: 'XK',
  XXK: 'XK',
};

/** Codes ICAO lists besides ISO 3166-1 alpha-3: organisations, statuses and the exceptions above. */
const ICAO_ONLY = new Set([
  ...Object.keys(ICAO_SPECIAL),
  'EUE',
  'UNO',
  'UNA',
  'UNK',
  'XBA',
  'XIM',
  'XCC',
  'XCE',
  'XCO',
  'XEC',
  'XPO',
  'XES',
  'XOM',
  'XDC',
  'XXA',
  'XXB',
  'XXC',
  'XXX',
]);

/** Whether an MRZ state code (fillers stripped) is one ICAO 9303 lists. */
export function isIcaoStateCode(code: string): boolean {
  const trimmed = code.replace(/<+$/, '');
  return ICAO_ONLY.has(trimmed) || countries.alpha3ToAlpha2(trimmed) !== undefined;
}

/** ISO 3166-1 alpha-2 for an MRZ state code (fillers stripped), or null when none exists. */
export function alpha2FromMrzState(code: string): string | null {
  const trimmed = code.replace(/<+$/, '');
  return ICAO_SPECIAL[trimmed] ?? countries.alpha3ToAlpha2(trimmed) ?? null;
}
