import countries from 'i18n-iso-countries';

/** Names the lists use that i18n-iso-countries does not know (OFAC's "Korea, North", UN's long forms). */
const LIST_SPELLINGS: Record<string, string> = {
  'korea, north': 'KP',
  'north korea': 'KP',
  "democratic people's republic of korea": 'KP',
  'korea, south': 'KR',
  burma: 'MM',
  'congo, democratic republic of the': 'CD',
  'democratic republic of the congo': 'CD',
  'congo, republic of the': 'CG',
  palestinian: 'PS',
  palestine: 'PS',
  'west bank': 'PS',
  gaza: 'PS',
  russia: 'RU',
  'russian federation': 'RU',
  syria: 'SY',
  'syrian arab republic': 'SY',
  iran: 'IR',
  'iran (islamic republic of)': 'IR',
  'hong kong': 'HK',
  'china, hong kong': 'HK',
  macau: 'MO',
  laos: 'LA',
  "lao people's democratic republic": 'LA',
  'bosnia and herzegovina': 'BA',
  'united kingdom of great britain and northern ireland': 'GB',
  'united states': 'US',
  'united states of america': 'US',
  'united republic of tanzania': 'TZ',
  'venezuela (bolivarian republic of)': 'VE',
  'bolivia (plurinational state of)': 'BO',
  'republic of moldova': 'MD',
  'the former yugoslav republic of macedonia': 'MK',
  'north macedonia': 'MK',
  'viet nam': 'VN',
  kosovo: 'XK',
  turkey: 'TR',
  türkiye: 'TR',
  'cote d ivoire': 'CI',
  "cote d'ivoire": 'CI',
  "côte d'ivoire": 'CI',
};

/**
 * An ISO 3166-1 alpha-2 code for a nationality as a list writes it: a code already, a country
 * name, or a list's own spelling. Null when unknown: an unknown nationality never disagrees.
 */
export function countryCode(value: string): string | null {
  const cleaned = value.trim().replace(/\.$/, '').trim();
  if (/^[A-Za-z]{2}$/.test(cleaned)) return cleaned.toUpperCase();
  const lower = cleaned.toLowerCase();
  return LIST_SPELLINGS[lower] ?? countries.getAlpha2Code(cleaned, 'en') ?? null;
}

export function countryCodes(values: Iterable<string>): string[] {
  const codes = new Set<string>();
  for (const value of values) {
    const code = countryCode(value);
    if (code) codes.add(code);
  }
  return [...codes];
}
