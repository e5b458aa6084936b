import { transliterate } from 'transliteration';

/** Titles and honorifics that documents and lists add or drop at will: never evidence of identity. */
const HONORIFICS = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'sir',
  'dame',
  'lord',
  'lady',
  'rev',
  'fr',
  'sheikh',
  'shaikh',
  'shaykh',
  'sheik',
  'haji',
  'hajji',
  'hadji',
  'mullah',
  'mulla',
  'maulana',
  'maulvi',
  'mawlawi',
  'qari',
  'imam',
  'sayed',
  'sayyid',
  'syed',
  'general',
  'gen',
  'colonel',
  'col',
  'major',
  'maj',
  'captain',
  'capt',
  'lt',
  'sgt',
  'commander',
  'emir',
  'amir',
  'jr',
  'sr',
  'ii',
  'iii',
]);

/**
 * Particles that are written joined, hyphenated, spaced or not at all depending on the document
 * ("al-Hassan", "Al Hassan", "Hassan"): dropped so that they neither make nor break a match.
 */
const PARTICLES = new Set([
  'al',
  'el',
  'ul',
  'bin',
  'ben',
  'ibn',
  'bint',
  'binti',
  'binte',
  'ould',
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'das',
  'dos',
  'do',
  'du',
  'la',
  'le',
  'y',
  'zu',
  'ter',
  'ten',
]);

/**
 * A name as comparable tokens: any script transliterated to Latin, diacritics and case removed,
 * apostrophes joined ("Gama'at" → "gamaat"), hyphens and punctuation split, honorifics and
 * particles dropped (kept if nothing else is left). Token order is not kept meaningful: the
 * matcher aligns tokens as a set.
 */
export function nameTokens(name: string): string[] {
  const latin = transliterate(name.normalize('NFKC'))
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’‘`´ʼʻ]/g, '');
  const all = latin.split(/[^a-z0-9]+/).filter((token) => token.length > 0 && !HONORIFICS.has(token));
  const meaningful = all.filter((token) => !PARTICLES.has(token));
  return meaningful.length > 0 ? meaningful : all;
}
