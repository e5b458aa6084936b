/**
 * The sealed bytes of the capture blobs this process wrote lately, so that a read of one soon after
 * (the selfie upload reads the liveness frames and the document portrait back; each paced step its
 * chunks) is answered without the store: a 437 KB frame pack costs FerretDB about 22 ms of CPU to
 * read back (benchmarks/results/store-profile.md). Blobs never change under an id, so a hit
 * is the stored bytes; entries stay sealed (the vault opens them as it opens the store's), are
 * dropped when the blob is deleted here, and live at most `ttlMs`: a capture is read back by the
 * process that took it, while it is open, and another process only deletes blobs once the capture
 * is closed to reads. Bounded by bytes, least recently used first out.
 */
export class RecentBlobs {
  private readonly entries = new Map<string, { sealed: Buffer; at: number }>();
  private bytes = 0;

  constructor(
    readonly maxBytes = 32 * 1024 * 1024,
    private readonly ttlMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  remember(blobId: string, sealed: Buffer): void {
    this.forget(blobId);
    if (sealed.length > this.maxBytes) return;
    this.entries.set(blobId, { sealed, at: this.now() });
    this.bytes += sealed.length;
    for (const [id] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(id);
    }
  }

  recall(blobId: string): Buffer | undefined {
    const entry = this.entries.get(blobId);
    if (!entry) return undefined;
    if (this.now() - entry.at > this.ttlMs) {
      this.forget(blobId);
      return undefined;
    }
    // Most recently used last, so the bound drops the coldest first.
    this.entries.delete(blobId);
    this.entries.set(blobId, entry);
    return entry.sealed;
  }

  forget(blobId: string): void {
    const entry = this.entries.get(blobId);
    if (!entry) return;
    this.entries.delete(blobId);
    this.bytes -= entry.sealed.length;
  }

  get size(): number {
    return this.entries.size;
  }
}
