/** Splits work into chunks no larger than a model's max batch size (at least one item each). */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  const step = Math.max(1, size);
  for (let i = 0; i < items.length; i += step) out.push(items.slice(i, i + step));
  return out;
}
