import { Connection, mongo } from 'mongoose';

interface Waiting<T> {
  doc: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for inserts on a request path: the first insert goes out at once, and those that
 * arrive while it is being written go out together, as one unordered insert command, when it is done.
 * On FerretDB over SQLite every write command is a transaction with its own fsync and writers take
 * turns on one lock, so under load N creations cost one commit instead of N; alone, an insert
 * waits for nothing. Each caller is answered with its own document's outcome, only once that
 * document is durable: a duplicate _id fails that insert alone (code 11000, as a lone insert
 * would), and an error of the whole command fails every insert of the group.
 */
export class GroupedInserts<T extends mongo.Document> {
  private waiting: Array<Waiting<T>> = [];
  private writing = false;

  constructor(
    private readonly connection: Connection,
    private readonly collectionName: string,
    private readonly maxGroup = 100,
  ) {}

  insert(doc: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ doc, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) await this.write(this.waiting.splice(0, this.maxGroup));
    } finally {
      this.writing = false;
    }
  }

  /**
   * The insert command itself rather than the driver's insertMany: its reply names each refused
   * document by index, and an error of the command as a whole (the store out of reach) reaches
   * the callers as the driver raised it, so the busy-store retry still recognises it.
   */
  private async write(group: Array<Waiting<T>>): Promise<void> {
    let refused: Map<number, mongo.MongoServerError>;
    try {
      const db = this.connection.db;
      if (!db) throw new mongo.MongoNotConnectedError('the session store connection is not open');
      const reply = await db.command(
        { insert: this.collectionName, documents: group.map((w) => w.doc), ordered: false },
        { ignoreUndefined: true },
      );
      refused = refusedByIndex(reply.writeErrors as WriteErrorReply[] | undefined);
    } catch (error) {
      for (const w of group) w.reject(error);
      return;
    }
    group.forEach((w, i) => (refused.has(i) ? w.reject(refused.get(i)) : w.resolve()));
  }
}

interface WriteErrorReply {
  index: number;
  code: number;
  errmsg?: string;
}

/** The documents the store refused, as the errors a lone insert of each would have raised. */
function refusedByIndex(writeErrors: WriteErrorReply[] = []): Map<number, mongo.MongoServerError> {
  return new Map(
    writeErrors.map((we) => {
      const message = we.errmsg ?? `insert refused (code ${we.code})`;
      return [we.index, new mongo.MongoServerError({ message, errmsg: message, code: we.code })];
    }),
  );
}
