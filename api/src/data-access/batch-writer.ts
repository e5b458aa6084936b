/**
 * Groups writes that arrive close together into one store call, and resolves each caller only
 * once its item is written (so a job is never acknowledged before its record is durable). One
 * batch is written at a time: on FerretDB (SQLite underneath) concurrent writers mostly wait on
 * each other, while one insertMany of a hundred documents costs about what a single insert does.
 */
export class BatchWriter<T> {
  private pending: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;

  constructor(
    private readonly writeBatch: (items: T[]) => Promise<void>,
    private readonly maxBatch = 200,
    private readonly lingerMs = 20,
  ) {}

  write(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.lingerMs);
    });
  }

  /** Writes whatever is waiting; resolves when nothing is left. */
  async flush(): Promise<void> {
    this.kick();
    while (this.draining) await this.draining;
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A drain in progress loops until empty, so it takes this item too.
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatch);
      try {
        await this.writeBatch(batch.map((entry) => entry.item));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
  }
}
