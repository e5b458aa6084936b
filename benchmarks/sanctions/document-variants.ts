import { transliterate } from 'transliteration';
import { ScreeningSubject } from '../../api/src/domain/ports/sanctions-screening';
import { WatchlistEntry } from '../../api/src/domain/sanctions/watchlist-entry';

const pick = <T>(random: () => number, items: T[]): T => items[Math.floor(random() * items.length)];

/** ICAO 9303 transliteration of Latin letters with diacritics, then the MRZ's 39 name characters. */
const ICAO: Record<string, string> = {
  Ä: 'AE',
  Ö: 'OE',
  Ü: 'UE',
  ß: 'SS',
  Ø: 'OE',
  Å: 'AA',
  Æ: 'AE',
  Œ: 'OE',
  Þ: 'TH',
  Ð: 'D',
  Ñ: 'N',
};

export function mrzName(name: string): string {
  const upper = name.toUpperCase().replace(/[ÄÖÜßØÅÆŒÞÐÑ]/g, (c) => ICAO[c] ?? c);
  const latin = transliterate(upper)
    .toUpperCase()
    .replace(/['’`]/g, '')
    .replace(/[^A-Z]+/g, ' ')
    .trim();
  return latin.slice(0, 39).trim();
}

function typo(name: string, random: () => number): string {
  const tokens = name.split(/\s+/);
  const candidates = tokens.map((token, index) => ({ token, index })).filter(({ token }) => token.length >= 4);
  if (!candidates.length) return name;
  const { token, index } = pick(random, candidates);
  const at = 1 + Math.floor(random() * (token.length - 2));
  const kind = Math.floor(random() * 3);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const changed =
    kind === 0
      ? token.slice(0, at) + pick(random, [...letters]) + token.slice(at + 1) // substitution
      : kind === 1
        ? token.slice(0, at) + token.slice(at + 1) // deletion
        : token.slice(0, at - 1) + token[at] + token[at - 1] + token.slice(at + 1); // transposition
  tokens[index] = changed;
  return tokens.join(' ');
}

export const VARIANTS = ['mrz', 'dropped-middle', 'swapped-order', 'typo', 'alias', 'missing-dob'] as const;
export type Variant = (typeof VARIANTS)[number];

function documentDob(entry: WatchlistEntry, random: () => number): string {
  const full = entry.dobs.find((dob) => dob.length === 10);
  if (full) return full;
  const year = entry.dobs[0]?.slice(0, 4) ?? String(1940 + Math.floor(random() * 60));
  const month =
    entry.dobs[0]?.length === 7 ? entry.dobs[0].slice(5, 7) : String(1 + Math.floor(random() * 12)).padStart(2, '0');
  return `${year}-${month}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
}

/**
 * A listed person as an identity document would read them: the way real documents differ from
 * lists (MRZ transliteration and truncation, a dropped middle name, surname first, a one-letter
 * typo, an alias, no DOB). The document's DOB and nationality agree with the list where it has them.
 */
export function listedPersonDocument(entry: WatchlistEntry, variant: Variant, random: () => number): ScreeningSubject {
  // Documents carry no titles ("Dr.", "Haji"), which OFAC writes into names.
  const primary = entry.names[0].replace(/^(?:(?:dr|mr|mrs|haji|hajji|shaykh|sheikh|mullah|maulvi)\.?\s+)+/i, '');
  const tokens = primary.split(/\s+/);
  const latinAliases = entry.names.slice(1).filter((alias) => /^[\p{Script=Latin}\s'.,-]+$/u.test(alias));
  const name =
    variant === 'mrz'
      ? mrzName(primary)
      : variant === 'dropped-middle'
        ? tokens.length >= 3
          ? `${tokens[0]} ${tokens[tokens.length - 1]}`
          : primary
        : variant === 'swapped-order'
          ? [...tokens].reverse().join(' ')
          : variant === 'typo'
            ? typo(primary, random)
            : variant === 'alias'
              ? latinAliases.length
                ? pick(random, latinAliases)
                : typo(primary, random)
              : primary;
  return {
    name,
    dob: variant === 'missing-dob' ? null : documentDob(entry, random),
    nationality: entry.nationalities.length ? pick(random, entry.nationalities) : null,
  };
}
