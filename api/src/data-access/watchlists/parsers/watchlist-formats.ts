import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { WatchlistEntry } from '../../../domain/sanctions/watchlist-entry';
import { AppError } from '../../../shared/app-error';
import { parseEuFsfXml } from './eu-fsf-xml.parser';
import { parseFtmJsonl } from './ftm-jsonl.parser';
import { parseOfacSdnCsv } from './ofac-sdn-csv.parser';
import { parseOpenSanctionsCsv } from './opensanctions-csv.parser';
import { parseUkSanctionsXml } from './uk-sanctions-xml.parser';
import { parseUnConsolidatedXml } from './un-consolidated-xml.parser';

interface Format {
  /** The list name used when the operator gives none. */
  defaultList: string;
  read(file: string): Promise<WatchlistEntry[]>;
}

const utf8 = (file: string) => readFile(file, 'utf8');

/** Every list format `watchlist import --format` accepts. */
export const WATCHLIST_FORMATS: Record<string, Format> = {
  'ofac-sdn-csv': {
    defaultList: 'ofac-sdn',
    // OFAC publishes aliases in alt.csv beside sdn.csv; they are read when present.
    async read(file) {
      const aliases = path.join(path.dirname(file), 'alt.csv');
      return parseOfacSdnCsv(await utf8(file), existsSync(aliases) ? await utf8(aliases) : undefined);
    },
  },
  'un-xml': {
    defaultList: 'un-consolidated',
    read: async (file) => parseUnConsolidatedXml(await utf8(file)),
  },
  'opensanctions-csv': {
    defaultList: 'opensanctions',
    read: async (file) => parseOpenSanctionsCsv(await utf8(file)),
  },
  'ftm-jsonl': { defaultList: 'opensanctions', read: async (file) => parseFtmJsonl(await utf8(file)) },
  'eu-xml': { defaultList: 'eu-fsf', read: async (file) => parseEuFsfXml(await utf8(file)) },
  'uk-xml': { defaultList: 'uk-sanctions', read: async (file) => parseUkSanctionsXml(await utf8(file)) },
};

export function watchlistFormat(name: string | undefined): Format {
  const format = name ? WATCHLIST_FORMATS[name] : undefined;
  if (!format)
    throw new AppError('VALIDATION_ERROR', `--format must be one of ${Object.keys(WATCHLIST_FORMATS).join(', ')}`);
  return format;
}
