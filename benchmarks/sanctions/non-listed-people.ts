import { allFakers } from '@faker-js/faker';
import { transliterate } from 'transliteration';
import { ScreeningSubject } from '../../api/src/domain/ports/sanctions-screening';

/**
 * Where the negatives come from: faker's name data by locale, with the nationality a document
 * from there would carry. Regions many listed persons come from (Russian, Mexican, Turkic,
 * Chinese names) are weighted up, since that is where false matches happen. faker's Arabic,
 * Persian, Urdu and Hebrew names are in their own scripts without vowels, which no passport
 * prints, so they are left out; `hardNegatives` covers Arabic-style names instead.
 */
const LOCALES: Array<{ locale: keyof typeof allFakers; country: string; weight: number }> = [
  { locale: 'ru', country: 'RU', weight: 3 },
  { locale: 'uk', country: 'UA', weight: 1 },
  { locale: 'es_MX', country: 'MX', weight: 3 },
  { locale: 'es', country: 'ES', weight: 1 },
  { locale: 'pt_BR', country: 'BR', weight: 1 },
  { locale: 'tr', country: 'TR', weight: 3 },
  { locale: 'zh_CN', country: 'CN', weight: 1 },
  { locale: 'ko', country: 'KR', weight: 1 },
  { locale: 'vi', country: 'VN', weight: 1 },
  { locale: 'id_ID', country: 'ID', weight: 2 },
  { locale: 'en_US', country: 'US', weight: 2 },
  { locale: 'en_GB', country: 'GB', weight: 1 },
  { locale: 'en_NG', country: 'NG', weight: 1 },
  { locale: 'de', country: 'DE', weight: 1 },
  { locale: 'fr', country: 'FR', weight: 1 },
  { locale: 'it', country: 'IT', weight: 1 },
  { locale: 'nl', country: 'NL', weight: 1 },
  { locale: 'pl', country: 'PL', weight: 1 },
  { locale: 'az', country: 'AZ', weight: 2 },
  { locale: 'uz_UZ_latin', country: 'UZ', weight: 1 },
];

const WEIGHTED = LOCALES.flatMap((locale) => Array.from({ length: locale.weight }, () => locale));

export interface Person extends ScreeningSubject {
  locale: string;
}

/** `count` people who are not on any list (by construction), seeded, with DOBs 1940–2006. */
export function nonListedPeople(count: number, seed: number): Person[] {
  const people: Person[] = [];
  for (let i = 0; i < count; i++) {
    const { locale, country } = WEIGHTED[i % WEIGHTED.length];
    const faker = allFakers[locale];
    faker.seed(seed + i);
    const sex = faker.helpers.arrayElement(['female', 'male'] as const);
    const middle = faker.number.int(3) === 0 ? ` ${faker.person.firstName(sex)}` : '';
    const name = transliterate(`${faker.person.firstName(sex)}${middle} ${faker.person.lastName(sex)}`);
    const dob = faker.date.between({ from: '1940-01-01', to: '2006-12-31' }).toISOString().slice(0, 10);
    people.push({ name, dob, nationality: country, locale });
  }
  return people;
}
