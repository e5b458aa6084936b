import { Connection, Schema } from 'mongoose';

/**
 * One document per list: the version that serves. Importing writes the new version's chunks
 * first and flips this pointer last, so readers see the old version or the complete new one.
 */
export interface WatchlistDocument {
  _id: string; // the list's name, e.g. ofac-sdn
  version: string;
  format: string;
  entry_count: number;
  chunk_count: number;
  loaded_at: Date;
  /** A version being written; if the import died, the next import removes its chunks. */
  pending: { version: string; chunk_count: number } | null;
}

/** A compact person: id, names (primary first), dobs, nationalities (FerretDB refuses nested arrays, so not a tuple). */
export interface StoredEntry {
  i: string;
  n: string[];
  d: string[];
  c: string[];
}

/**
 * Entries are stored a thousand to a document, keyed `<list>@<version>#<seq>`: FerretDB is fast on
 * _id reads and slow on many small writes, so a million persons are a thousand _id reads.
 */
export interface WatchlistChunkDocument {
  _id: string;
  entries: StoredEntry[];
}

const watchlistSchema = new Schema<WatchlistDocument>(
  {
    _id: { type: String, required: true },
    version: { type: String, required: true },
    format: { type: String, required: true },
    entry_count: { type: Number, required: true },
    chunk_count: { type: Number, required: true },
    loaded_at: { type: Date, required: true },
    pending: { type: Schema.Types.Mixed, default: null },
  },
  { versionKey: false },
);

const chunkSchema = new Schema<WatchlistChunkDocument>(
  { _id: { type: String, required: true }, entries: { type: Schema.Types.Mixed, required: true } },
  { versionKey: false },
);

export function watchlistModels(connection: Connection) {
  return {
    Watchlist: connection.model<WatchlistDocument>('Watchlist', watchlistSchema, 'watchlists'),
    WatchlistChunk: connection.model<WatchlistChunkDocument>('WatchlistChunk', chunkSchema, 'watchlist_chunks'),
  };
}
