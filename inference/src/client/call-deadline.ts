/** Every client call carries a deadline; these are the defaults when the caller gives none. */
export const DEFAULT_DEADLINES_MS = {
  /** Readiness, metadata, statistics: cheap, so a slow answer means trouble. */
  control: 2_000,
  /** One ModelInfer, including queueing behind other callers' batches. */
  infer: 10_000,
  /** One verification check (several model calls; document OCR is the slowest on CPU). */
  check: 30_000,
};

export function deadlineIn(ms: number): Date {
  return new Date(Date.now() + ms);
}
