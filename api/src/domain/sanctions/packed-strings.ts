/**
 * Many short strings kept as one string and an offsets array. A million-person index held as
 * millions of small heap strings and arrays makes every full garbage collection walk them all
 * (hundreds of milliseconds, straight into the screening p99); packed, the collector sees a few
 * large objects.
 */
export class PackedStrings {
  private parts: string[] = [];
  private ends: number[] = [];
  private text = '';
  private bounds = new Int32Array(1);
  private total = 0;

  push(value: string): number {
    this.parts.push(value);
    this.total += value.length;
    this.ends.push(this.total);
    return this.parts.length - 1;
  }

  /** Ends building: no push after this. */
  freeze(): void {
    this.text = this.parts.join('');
    this.bounds = Int32Array.from([0, ...this.ends]);
    this.parts = [];
    this.ends = [];
  }

  get(index: number): string {
    return this.text.slice(this.bounds[index], this.bounds[index + 1]);
  }
}
