/**
 * What task code may ask of the service's memory of uploads (serving/remembered-images.ts): an
 * upload decoded once, and work derived from it done once, however many checks ask. Typed without
 * the image toolkit, which sits above the runtime.
 */
export interface ImageMemo {
  /** The decoded upload, tagged with its `source`; the same pixels for the same bytes while remembered. */
  decode<T extends { data: Uint8Array }>(bytes: Uint8Array, decode: () => Promise<T>): Promise<T & { source: string }>;
  /** What `op` derives from the upload named `source`, computed once while remembered. */
  derived<T>(source: string, op: string, compute: () => Promise<T>): Promise<T>;
}
