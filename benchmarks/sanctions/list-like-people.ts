import { ScreeningSubject } from '../../api/src/domain/ports/sanctions-screening';
import { nameTokens } from '../../api/src/domain/sanctions/name-tokens';
import { WatchlistEntry } from '../../api/src/domain/sanctions/watchlist-entry';
import { seededRandom } from '../../scripts/test-support/seeded-random';

const randomDob = (random: () => number) =>
  `${1940 + Math.floor(random() * 66)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;

/**
 * Hard negatives: a given name of one listed person with the family name of another (so Arabic,
 * Russian and Latin-American names in list spellings), skipping any combination that spells a
 * listed name, with a random DOB and a nationality taken from the lists.
 */
export function recombinedListNames(entries: WatchlistEntry[], count: number, seed: number): ScreeningSubject[] {
  const random = seededRandom(seed);
  const listed = new Set(entries.flatMap((entry) => entry.names.map((name) => [...nameTokens(name)].sort().join(' '))));
  const nationalities = entries.flatMap((entry) => entry.nationalities);
  const people: ScreeningSubject[] = [];
  for (let guard = 0; people.length < count && guard < count * 20; guard++) {
    const given = entries[Math.floor(random() * entries.length)].names[0].split(/\s+/);
    const family = entries[Math.floor(random() * entries.length)].names[0].split(/\s+/);
    if (given.length < 2 || family.length < 2) continue;
    const name = `${given[0]} ${family[family.length - 1]}`;
    if (listed.has([...nameTokens(name)].sort().join(' '))) continue;
    people.push({
      name,
      dob: randomDob(random),
      nationality: nationalities[Math.floor(random() * nationalities.length)] ?? null,
    });
  }
  return people;
}

/**
 * Namesakes: a listed person's exact primary name with a DOB at least two years from every listed
 * date, i.e. someone else with the same name. Only entries with a DOB, since without one the list
 * gives nothing to tell them apart.
 */
export function namesakes(entries: WatchlistEntry[], seed: number): Array<ScreeningSubject & { entryId: string }> {
  const random = seededRandom(seed);
  return entries
    .filter((entry) => entry.dobs.length > 0)
    .map((entry) => {
      const years = entry.dobs.map((dob) => Number(dob.slice(0, 4)));
      let dob = randomDob(random);
      while (years.some((year) => Math.abs(year - Number(dob.slice(0, 4))) < 2)) dob = randomDob(random);
      return { name: entry.names[0], dob, nationality: null, entryId: entry.id };
    });
}
