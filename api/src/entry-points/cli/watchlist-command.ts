import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Connection } from 'mongoose';
import { z } from 'zod';
import { WATCHLIST_FORMATS, watchlistFormat } from '../../data-access/watchlists/parsers/watchlist-formats';
import { watchlistFileError } from '../../data-access/watchlists/parsers/watchlist-file-error';
import { createSanctionsScreening } from '../../data-access/watchlist-screening';
import { WatchlistRepository } from '../../data-access/watchlist.repository';
import { AppError } from '../../shared/app-error';
import { createLogger } from '../../shared/logger';

export const WATCHLIST_USAGE = `  watchlist import --format ${Object.keys(WATCHLIST_FORMATS).join('|')} --file <path> [--list <name>]
  watchlist status
  watchlist screen --file <queries.jsonl>   (one {"name","dob"?,"nationality"?} a line; prints one result a line)`;

const LIST_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** `watchlist import`: parses the whole file first (refused with its line), then loads it as a new version. */
export async function importWatchlist(args: string[], connection: Connection): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: { format: { type: 'string' }, file: { type: 'string' }, list: { type: 'string' } },
  });
  const format = watchlistFormat(values.format);
  if (!values.file) throw new AppError('VALIDATION_ERROR', '--file <path> is required');
  const list = values.list ?? format.defaultList;
  if (!LIST_NAME.test(list))
    throw new AppError('VALIDATION_ERROR', '--list must be lower-case letters, digits, - or _');
  const entries = await format.read(values.file).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new AppError('VALIDATION_ERROR', `no such file: ${values.file}`) : error;
  });
  if (entries.length === 0) throw watchlistFileError(null, 'no persons in this file; the list is left as it was');
  return new WatchlistRepository(connection).replaceList(list, values.format as string, entries, new Date());
}

export async function watchlistStatus(_args: string[], connection: Connection): Promise<unknown> {
  return { lists: await new WatchlistRepository(connection).status() };
}

const querySchema = z.object({
  name: z.string().min(1),
  dob: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
    .nullish(),
  nationality: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be ISO 3166-1 alpha-2')
    .nullish(),
});

/**
 * `watchlist screen`: screens each query line exactly as a session is screened and prints one
 * JSON line per query. Returns undefined: its output is already written, line by line.
 */
export async function screenWatchlist(args: string[], connection: Connection): Promise<undefined> {
  const { values } = parseArgs({ args, options: { file: { type: 'string' } } });
  if (!values.file) throw new AppError('VALIDATION_ERROR', '--file <queries.jsonl> is required');
  const screening = createSanctionsScreening(connection, createLogger('silent'), {
    refreshIntervalMs: Number.POSITIVE_INFINITY,
  });
  let lineNumber = 0;
  for await (const line of createInterface({ input: createReadStream(values.file), crlfDelay: Infinity })) {
    lineNumber++;
    if (!line.trim()) continue;
    let parsed;
    try {
      parsed = querySchema.safeParse(JSON.parse(line));
    } catch {
      throw watchlistFileError(lineNumber, 'not JSON');
    }
    if (!parsed.success)
      throw watchlistFileError(
        lineNumber,
        parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      );
    const outcome = await screening.screen({
      name: parsed.data.name,
      dob: parsed.data.dob ?? null,
      nationality: parsed.data.nationality?.toUpperCase() ?? null,
    });
    if (outcome.verdict === 'SKIPPED')
      throw new AppError('CONFLICT', 'no watchlist is loaded: run `watchlist import` first');
    const hit =
      outcome.verdict === 'MATCH' && outcome.best
        ? {
            list: outcome.best.list,
            entry_id: outcome.best.entry_id,
            matched_name: outcome.best.matched_name,
          }
        : {};
    process.stdout.write(`${JSON.stringify({ result: outcome.verdict, score: outcome.score, ...hit })}\n`);
  }
  return undefined;
}
