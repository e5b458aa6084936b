/**
 * The blocking keys of a token: itself, and for longer tokens its first and last three letters, so
 * a one-letter typo still leaves a key in common with the listed spelling.
 */
export function blockingKeys(token: string): string[] {
  if (token.length < 4) return [`=${token}`];
  return [`=${token}`, `<${token.slice(0, 3)}`, `>${token.slice(-3)}`];
}

/** Key → rows holding it, built incrementally then frozen into typed arrays. */
export class TokenPostings {
  private building = new Map<string, number[]>();
  private frozen = new Map<string, Int32Array>();

  add(key: string, row: number): void {
    const rows = this.building.get(key);
    if (!rows) this.building.set(key, [row]);
    else if (rows[rows.length - 1] !== row) rows.push(row);
  }

  freeze(): void {
    for (const [key, rows] of this.building) this.frozen.set(key, Int32Array.from(rows));
    this.building = new Map();
  }

  rows(key: string): Int32Array | undefined {
    return this.frozen.get(key);
  }
}
