/**
 * Counts requests in flight per key (a capture, a client address) in this process. Uploads hold
 * memory while their bodies arrive and CPU while they are checked, so how many run at once is
 * bounded per key; each API replica bounds its own.
 */
export class InFlightLimiter {
  private readonly counts = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes a slot, or answers false when `key` already holds `limit`. */
  acquire(key: string): boolean {
    const held = this.counts.get(key) ?? 0;
    if (held >= this.limit) return false;
    this.counts.set(key, held + 1);
    return true;
  }

  release(key: string): void {
    const held = (this.counts.get(key) ?? 0) - 1;
    if (held > 0) this.counts.set(key, held);
    else this.counts.delete(key);
  }

  held(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}
