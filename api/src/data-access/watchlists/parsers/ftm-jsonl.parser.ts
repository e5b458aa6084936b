import { WatchlistEntry } from '../../../domain/sanctions/watchlist-entry';
import { countryCodes } from './country-code';
import { isoPartialDate } from './partial-date';
import { watchlistFileError } from './watchlist-file-error';

type Properties = Record<string, unknown>;

const values = (properties: Properties, name: string): string[] => {
  const value = properties[name];
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];
};

/**
 * FollowTheMoney entities, one JSON object per line (`entities.ftm.json`). Only `Person`;
 * `weakAlias` is not matched on, as its publishers advise. A person with no `name` is named from
 * its first, middle and last names.
 */
export function parseFtmJsonl(text: string): WatchlistEntry[] {
  const entries: WatchlistEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    let entity: { id?: unknown; schema?: unknown; properties?: unknown };
    try {
      entity = JSON.parse(line) as typeof entity;
    } catch (error) {
      throw watchlistFileError(index + 1, `not JSON: ${(error as Error).message}`);
    }
    if (entity.schema !== 'Person') return;
    const properties = (entity.properties ?? {}) as Properties;
    const composed = ['firstName', 'middleName', 'lastName']
      .flatMap((part) => values(properties, part).slice(0, 1))
      .join(' ');
    const primary = values(properties, 'name');
    const names = [...(primary.length || !composed ? primary : [composed]), ...values(properties, 'alias')];
    if (typeof entity.id !== 'string' || !entity.id || names.length === 0) {
      throw watchlistFileError(
        index + 1,
        `Person without ${typeof entity.id === 'string' && entity.id ? 'a name' : 'an id'}`,
      );
    }
    entries.push({
      id: entity.id,
      names: [...new Set(names)],
      dobs: values(properties, 'birthDate')
        .map(isoPartialDate)
        .filter((date): date is string => date !== null),
      nationalities: countryCodes([...values(properties, 'nationality'), ...values(properties, 'citizenship')]),
    });
  });
  return entries;
}
