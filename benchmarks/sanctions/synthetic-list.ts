import { allFakers } from '@faker-js/faker';
import { transliterate } from 'transliteration';
import { WatchlistEntry } from '../../api/src/domain/sanctions/watchlist-entry';

/** Locales whose names a large list holds, in Latin script as lists publish them. */
const LOCALES: Array<{ locale: keyof typeof allFakers; country: string }> = [
  { locale: 'ru', country: 'RU' },
  { locale: 'uk', country: 'UA' },
  { locale: 'es_MX', country: 'MX' },
  { locale: 'es', country: 'ES' },
  { locale: 'tr', country: 'TR' },
  { locale: 'az', country: 'AZ' },
  { locale: 'uz_UZ_latin', country: 'UZ' },
  { locale: 'zh_CN', country: 'CN' },
  { locale: 'ko', country: 'KR' },
  { locale: 'vi', country: 'VN' },
  { locale: 'id_ID', country: 'ID' },
  { locale: 'en_US', country: 'US' },
  { locale: 'en_GB', country: 'GB' },
  { locale: 'en_NG', country: 'NG' },
  { locale: 'de', country: 'DE' },
  { locale: 'fr', country: 'FR' },
  { locale: 'it', country: 'IT' },
  { locale: 'pl', country: 'PL' },
  { locale: 'pt_BR', country: 'BR' },
  { locale: 'ro', country: 'RO' },
];

/**
 * `count` synthetic listed persons, the scale of OpenSanctions' full person set: a given name,
 * sometimes a second, a family name, a third with an alias, most with a DOB and a nationality.
 */
export function syntheticList(count: number, seed: number): WatchlistEntry[] {
  const entries = new Array<WatchlistEntry>(count);
  const fakers = LOCALES.map(({ locale, country }) => {
    const faker = allFakers[locale];
    faker.seed(seed + country.charCodeAt(0) * 31 + country.charCodeAt(1));
    return { faker, country };
  });
  for (let i = 0; i < count; i++) {
    const { faker, country } = fakers[i % fakers.length];
    const sex = i % 2 === 0 ? 'male' : 'female';
    const given = faker.person.firstName(sex);
    const second = i % 3 === 0 ? ` ${faker.person.firstName(sex)}` : '';
    const family = faker.person.lastName(sex);
    const names = [transliterate(`${given}${second} ${family}`)];
    if (i % 3 === 1) names.push(transliterate(`${faker.person.firstName(sex)} ${family}`));
    const year = 1940 + (i % 66);
    entries[i] = {
      id: `syn-${i}`,
      names,
      dobs:
        i % 5 === 0
          ? []
          : i % 4 === 0
            ? [String(year)]
            : [`${year}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`],
      nationalities: i % 6 === 0 ? [] : [country],
    };
  }
  return entries;
}
