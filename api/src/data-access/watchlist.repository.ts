import { randomBytes } from 'node:crypto';
import { Connection } from 'mongoose';
import { LoadedList, WatchlistEntry } from '../domain/sanctions/watchlist-entry';
import { StoredEntry, watchlistModels } from './watchlist.model';

const ENTRIES_PER_CHUNK = 1000;
/** Chunks per insertMany: a few thousand entries a write, which FerretDB handles well. */
const CHUNKS_PER_WRITE = 4;

export interface ListStatus {
  list: string;
  version: string;
  format: string;
  entry_count: number;
  loaded_at: string;
}

const chunkId = (list: string, version: string, seq: number) => `${list}@${version}#${String(seq).padStart(6, '0')}`;

/** The watchlists store: versions of each list, written whole before they serve. */
export class WatchlistRepository {
  private readonly models;

  constructor(connection: Connection) {
    this.models = watchlistModels(connection);
  }

  /**
   * Loads a new version of `list`: chunks first (under a version nobody reads yet), then the
   * pointer flip, then the old version's removal. A crash before the flip leaves the old version
   * serving and the orphan chunks noted as `pending`, removed by the next import.
   */
  async replaceList(list: string, format: string, entries: WatchlistEntry[], now: Date): Promise<ListStatus> {
    const { Watchlist, WatchlistChunk } = this.models;
    const version = `${now.toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
    const chunkCount = Math.ceil(entries.length / ENTRIES_PER_CHUNK);
    const previous = await Watchlist.findById(list).lean();
    if (previous?.pending) await this.removeChunks(list, previous.pending.version, previous.pending.chunk_count);
    if (previous) await Watchlist.updateOne({ _id: list }, { $set: { pending: { version, chunk_count: chunkCount } } });

    for (let first = 0; first < chunkCount; first += CHUNKS_PER_WRITE) {
      const batch = [];
      for (let seq = first; seq < Math.min(chunkCount, first + CHUNKS_PER_WRITE); seq++) {
        const slice = entries.slice(seq * ENTRIES_PER_CHUNK, (seq + 1) * ENTRIES_PER_CHUNK);
        batch.push({
          _id: chunkId(list, version, seq),
          entries: JSON.stringify(
            slice.map((e): StoredEntry => ({ i: e.id, n: e.names, d: e.dobs, c: e.nationalities })),
          ),
        });
      }
      await WatchlistChunk.insertMany(batch, { ordered: true, lean: true }).catch((error: Error) => {
        // The driver's message can quote the whole document: listed persons' data, kept out of output.
        throw new Error(`writing ${list}@${version} chunk ${first} failed: ${error.message.slice(0, 120)}`);
      });
    }

    const pointer = {
      version,
      format,
      entry_count: entries.length,
      chunk_count: chunkCount,
      loaded_at: now,
      pending: null,
    };
    await Watchlist.updateOne({ _id: list }, { $set: pointer }, { upsert: true });
    if (previous) await this.removeChunks(list, previous.version, previous.chunk_count);
    return { list, version, format, entry_count: entries.length, loaded_at: now.toISOString() };
  }

  /** Every list that serves, with its version, size and load time. */
  async status(): Promise<ListStatus[]> {
    const lists = await this.models.Watchlist.find({}).lean();
    return lists
      .map((doc) => ({
        list: doc._id,
        version: doc.version,
        format: doc.format,
        entry_count: doc.entry_count,
        loaded_at: new Date(doc.loaded_at).toISOString(),
      }))
      .sort((a, b) => a.list.localeCompare(b.list));
  }

  /**
   * Reads one version of a list whole, in one `_id` range scan (`#` < `$`, so the range is exactly
   * this version's chunks): on FerretDB one scan is far cheaper than a lookup per chunk.
   */
  async load(list: string, version: string): Promise<LoadedList> {
    const pointer = await this.models.Watchlist.findById(list).lean();
    if (!pointer || pointer.version !== version)
      throw new Error(`watchlist ${list} is no longer at version ${version}`);
    const chunks = new Array<StoredEntry[]>(pointer.chunk_count);
    let found = 0;
    const range = { $gte: `${list}@${version}#`, $lt: `${list}@${version}$` };
    for await (const chunk of this.models.WatchlistChunk.find({ _id: range }).lean().cursor()) {
      chunks[Number(chunk._id.slice(chunk._id.lastIndexOf('#') + 1))] = JSON.parse(chunk.entries) as StoredEntry[];
      found++;
    }
    if (found !== pointer.chunk_count)
      throw new Error(
        `watchlist ${list}@${version} has ${found} of ${pointer.chunk_count} chunks (replaced while loading?)`,
      );
    const entries = chunks.flat().map(({ i, n, d, c }) => ({ id: i, names: n, dobs: d, nationalities: c }));
    return { name: list, version, entries };
  }

  private async removeChunks(list: string, version: string, chunkCount: number): Promise<void> {
    for (let first = 0; first < chunkCount; first += 100) {
      const ids = [];
      for (let seq = first; seq < Math.min(chunkCount, first + 100); seq++) ids.push(chunkId(list, version, seq));
      await this.models.WatchlistChunk.deleteMany({ _id: { $in: ids } });
    }
  }
}
