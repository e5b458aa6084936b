/**
 * The service's ImageMemo: work the checks do on an upload, remembered by the upload's bytes. One verification sends the
 * same images to several checks: the frames to liveness at their upload (the face-found gate) and
 * again with the selfie, five of them to antispoof; the selfie to antispoof, liveness and face
 * match at once. Each check used to decode every image and find, mesh and embed every face again.
 * With the memo an upload is decoded once while it is in use, and what is derived from it (faces
 * found, landmarks, embeddings, key-frame scores) is computed once and handed to every check that
 * asks. Decoding, cropping and the models are deterministic, so a check answers exactly what it
 * answered before; only the repeated work is gone.
 *
 * Keys are the SHA-256 of the uploaded bytes, so one applicant's work can only ever answer for the
 * same bytes. Decoded pixels are the large part: they live `imageTtlMs` within `imageBytes`
 * (least recently used out first). Derived results are smaller (a face's landmarks, 38 KB; a
 * 128-number embedding) and live `derivedTtlMs`, up to `derivedEntries`, so the frames analysed at the gate
 * still answer at the selfie minutes later. Everything is in the service's memory only.
 */
import { createHash } from 'node:crypto';
import type { ImageMemo } from '../runtime/image-memo';

type Decoded = { data: Uint8Array };

export interface ImageMemoOptions {
  imageBytes: number;
  imageTtlMs: number;
  derivedEntries: number;
  derivedTtlMs: number;
  now?: () => number;
  /** Told each lookup's outcome (metrics). */
  count?: (kind: 'decode' | 'derived', outcome: 'hit' | 'miss') => void;
}

interface Entry<T> {
  value: Promise<T>;
  expiresAt: number;
  bytes: number;
}

export class RememberedImages implements ImageMemo {
  private readonly images = new Map<string, Entry<Decoded>>();
  private readonly results = new Map<string, Entry<unknown>>();
  private imageBytes = 0;
  private readonly now: () => number;

  constructor(private readonly options: ImageMemoOptions) {
    this.now = options.now ?? (() => Date.now());
  }

  statistics(): { images: number; imageBytes: number; results: number } {
    return { images: this.images.size, imageBytes: this.imageBytes, results: this.results.size };
  }

  decode<T extends Decoded>(bytes: Uint8Array, decode: () => Promise<T>): Promise<T & { source: string }> {
    const source = createHash('sha256').update(bytes).digest('base64');
    const found = this.fresh(this.images, source);
    this.options.count?.('decode', found ? 'hit' : 'miss');
    if (found) return found as Promise<T & { source: string }>;
    const value = decode().then((image) => ({ ...image, source }));
    const entry: Entry<Decoded> = { value, expiresAt: this.now() + this.options.imageTtlMs, bytes: 0 };
    this.images.set(source, entry);
    value.then(
      (image) => {
        if (this.images.get(source) !== entry) return;
        entry.bytes = image.data.byteLength;
        this.imageBytes += entry.bytes;
        this.evictImages();
      },
      () => this.forget(this.images, source, entry),
    );
    return value;
  }

  derived<T>(source: string, op: string, compute: () => Promise<T>): Promise<T> {
    const key = `${op}:${source}`;
    const found = this.fresh(this.results, key) as Promise<T> | undefined;
    this.options.count?.('derived', found ? 'hit' : 'miss');
    if (found) return found;
    const value = compute();
    const entry: Entry<unknown> = { value, expiresAt: this.now() + this.options.derivedTtlMs, bytes: 0 };
    this.results.set(key, entry);
    // A failed run (a cancelled caller's deadline) is not remembered: the next caller runs it again.
    value.catch(() => this.forget(this.results, key, entry));
    while (this.results.size > this.options.derivedEntries) this.results.delete(this.results.keys().next().value!);
    return value;
  }

  private fresh<T>(map: Map<string, Entry<T>>, key: string): Promise<T> | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.forget(map, key, entry);
      return undefined;
    }
    // Most recently used last, so eviction takes from the front.
    map.delete(key);
    map.set(key, entry);
    return entry.value;
  }

  private forget<T>(map: Map<string, Entry<T>>, key: string, entry: Entry<T>): void {
    if (map.get(key) !== entry) return;
    map.delete(key);
    // Only decoded images carry bytes; a derived result's entry counts 0.
    this.imageBytes -= entry.bytes;
  }

  private evictImages(): void {
    const now = this.now();
    for (const [key, entry] of this.images) {
      if (this.imageBytes <= this.options.imageBytes && entry.expiresAt > now) break;
      if (entry.bytes === 0 && entry.expiresAt > now) continue;
      this.forget(this.images, key, entry);
    }
  }
}
