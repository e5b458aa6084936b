/**
 * The last lines an executor wrote to stderr, still passed through to the service's own stderr.
 * onnxruntime reports why a provider failed to load only there, so the front reads the reason
 * here rather than from the JavaScript error.
 */
import { ortFailureReason } from '../runtime/cuda-failure';

export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';
  private seen = 0;

  constructor(private readonly keep = 200) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.add(line);
  }

  /** Lines seen so far: pass it to `reason` to read only what came after. */
  get mark(): number {
    return this.seen;
  }

  /**
   * The onnxruntime failure written since `mark`. The stderr pipe and the message pipe are read
   * independently, so the line may arrive just after the executor's reply: wait up to `waitMs`.
   */
  async reason(mark: number, waitMs = 1000): Promise<string | undefined> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = ortFailureReason(this.since(mark)) ?? ortFailureReason(this.partial ? [this.partial] : []);
      if (found || Date.now() >= deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private since(mark: number): string[] {
    const fresh = this.seen - mark;
    return fresh <= 0 ? [] : this.lines.slice(-Math.min(fresh, this.lines.length));
  }

  private add(line: string): void {
    this.lines.push(line);
    this.seen += 1;
    if (this.lines.length > this.keep) this.lines.shift();
  }
}
