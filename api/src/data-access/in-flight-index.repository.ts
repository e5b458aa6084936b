import { Connection, Model, QueryFilter } from 'mongoose';
import { GroupedInserts } from './grouped-inserts';
import { InFlightEntryDocument, InFlightKind, inFlightModel } from './in-flight-entry.model';

const DUPLICATE_KEY = 11000;

/**
 * An upsert by _id. Two racing upserts of a missing document may both insert, and FerretDB (like
 * MongoDB in some versions) answers the second with a duplicate key: the document now exists, so
 * the same update once more applies to it.
 */
export async function upsertById<T>(model: Model<T>, id: string, update: Record<string, unknown>): Promise<void> {
  try {
    await model.updateOne({ _id: id } as never, update, { upsert: true }).exec();
  } catch (error) {
    if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
    await model.updateOne({ _id: id } as never, update, { upsert: true }).exec();
  }
}

/** An entry younger than this may belong to a write still on its way: a sweep leaves it alone. */
export const ENTRY_GRACE_MS = 10 * 60_000;

/**
 * One kind of in-flight work, keyed by session id. Written before the session write it mirrors
 * (so a crash between the two leaves an entry for the sweep to re-check, never a session the
 * sweep cannot see), removed once the work is settled. Writes and reads by _id alone are pushed
 * down to FerretDB's _id index; the sweep's filtered read scans only this small collection.
 */
export class InFlightIndex {
  readonly model: Model<InFlightEntryDocument>;
  /** New sessions' entries, committed together when they arrive together (see GroupedInserts). */
  private readonly starts: GroupedInserts<InFlightEntryDocument>;

  constructor(
    private readonly connection: Connection,
    kind: InFlightKind,
  ) {
    this.model = inFlightModel(connection, kind);
    this.starts = new GroupedInserts<InFlightEntryDocument>(connection, this.model.collection.collectionName);
  }

  /** The session behind an entry, read by _id alone (the one filter FerretDB pushes down). */
  session<T extends { _id: string }>(id: string, projection: Record<string, number>): Promise<T | null> {
    return this.connection.collection<T>('sessions').findOne({ _id: id } as never, { projection }) as Promise<T | null>;
  }

  /**
   * The sessions, oldest entry first, that still owe the work as their documents say. An entry
   * whose session is gone, or owes nothing and is past its grace, is dropped; a younger one stays
   * (the write it announced may still be on its way).
   */
  async owing<T extends { _id: string }>(
    limit: number,
    projection: Record<string, number>,
    owes: (session: T) => boolean,
    now = new Date(),
  ): Promise<T[]> {
    const owing: T[] = [];
    for (const entry of await this.list({}, limit)) {
      const session = await this.session<T>(entry._id, projection);
      if (session && owes(session)) owing.push(session);
      else if (!session || this.isStale(entry, now)) await this.drop(entry);
    }
    return owing;
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  /** Upserts the session's entry (one per session: the latest attempt and round are what is owed). */
  async track(id: string, fields: Omit<InFlightEntryDocument, '_id' | 'since'>, now = new Date()): Promise<void> {
    const unset = (['round', 'due_at', 'decision_requested_at'] as const).filter((k) => !(k in fields));
    await upsertById(this.model, id, {
      $set: { ...fields, since: now },
      ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, 1])) } : {}),
    });
  }

  /**
   * A new session's entry: an insert (grouped with those of other creations under way), which
   * FerretDB answers with a plain INSERT where the upsert of `track` first looks the _id up. An
   * entry that exists already (a re-run of the same creation) is rewritten as `track` would.
   */
  async start(id: string, fields: Omit<InFlightEntryDocument, '_id' | 'since'>, now = new Date()): Promise<void> {
    try {
      await this.starts.insert({ _id: id, ...fields, since: now });
    } catch (error) {
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      await this.track(id, fields, now);
    }
  }

  /** Sets fields on an existing entry only (the entry says what it mirrors; no upsert). */
  async annotate(id: string, fields: Partial<Omit<InFlightEntryDocument, '_id'>>): Promise<void> {
    await this.model.updateOne({ _id: id }, { $set: fields }).exec();
  }

  /** The work of that attempt (and round) is done: its entry goes, unless a later one replaced it. */
  async settle(id: string, attempt: number, round?: number): Promise<void> {
    await this.model.deleteOne({ _id: id, attempt, ...(round === undefined ? {} : { round }) }).exec();
  }

  /** A sweep found nothing owed behind this entry: it goes if nobody rewrote it since it was read. */
  async drop(entry: Pick<InFlightEntryDocument, '_id' | 'since'>): Promise<void> {
    await this.model.deleteOne({ _id: entry._id, since: entry.since }).exec();
  }

  /** Past its grace: a write it announced would have landed by now (or been rolled forward by claim recovery). */
  isStale(entry: Pick<InFlightEntryDocument, 'since'>, now: Date): boolean {
    return now.getTime() - new Date(entry.since).getTime() > ENTRY_GRACE_MS;
  }

  list(
    filter: QueryFilter<InFlightEntryDocument>,
    limit: number,
    sort: Record<string, 1 | -1> = { since: 1 },
  ): Promise<InFlightEntryDocument[]> {
    return this.model.find(filter).sort(sort).limit(limit).lean<InFlightEntryDocument[]>().exec();
  }

  get(id: string): Promise<InFlightEntryDocument | null> {
    return this.model.findById(id).lean<InFlightEntryDocument>().exec();
  }

  count(): Promise<number> {
    return this.model.countDocuments({}).exec();
  }
}
