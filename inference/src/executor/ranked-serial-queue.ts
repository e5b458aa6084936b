/**
 * The executor's order of work: one job at a time (each model run already uses every core through
 * onnxruntime's threads), the lowest rank first, first come first served among equal ranks. The
 * front ranks a run by when the oldest call in its batch arrived, so a call's later stages go ahead
 * of stages of calls that arrived after it, and every call still gets its turn: ranks only age.
 */
type Job = { rank: number; work: () => Promise<void> };

export class RankedSerialQueue {
  private readonly waiting: Job[] = [];
  private running = false;

  constructor(
    /** When to pick the next job: after the I/O phase by default, so jobs that arrived during a run compete. */
    private readonly defer: (pick: () => void) => void = (pick) => void setImmediate(pick),
  ) {}

  push(rank: number, work: () => Promise<void>): void {
    let at = this.waiting.length;
    while (at > 0 && this.waiting[at - 1].rank > rank) at--;
    this.waiting.splice(at, 0, { rank, work });
    if (!this.running) this.startNext();
  }

  private startNext(): void {
    this.running = true;
    this.defer(() => {
      const next = this.waiting.shift();
      if (!next) {
        this.running = false;
        return;
      }
      next
        .work()
        .catch(() => undefined)
        .finally(() => this.startNext());
    });
  }
}
