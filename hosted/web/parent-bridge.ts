/**
 * Widget events (contract: "Widget events"): posted to the framing window only, with the origin of
 * the session's return_url as the target so no other page can read them.
 */
export class ParentBridge {
  private lastHeight = 0;

  constructor(
    private readonly win: Window,
    private readonly sessionId: string,
    private readonly targetOrigin: string | null,
  ) {}

  get active(): boolean {
    return this.win.parent !== this.win && this.targetOrigin !== null;
  }

  post(type: 'step' | 'complete' | 'cancel' | 'resize', fields: Record<string, unknown> = {}): void {
    if (!this.active) return;
    this.win.parent.postMessage(
      { source: 'bioverify', type, session_id: this.sessionId, ...fields },
      this.targetOrigin as string,
    );
  }

  /**
   * Reports the content's height whenever it changes, so the widget sizes its iframe without a
   * scrollbar or a gap. Measured from the content, not the document: a document is never shorter
   * than its frame, so it could grow the frame but never shrink it.
   */
  watchHeight(doc: Document): void {
    const main = doc.querySelector('main');
    if (!this.active || !main) return;
    const report = () => {
      const bottom =
        main.getBoundingClientRect().bottom +
        this.win.scrollY +
        parseFloat(this.win.getComputedStyle(main).marginBottom || '0');
      const height = Math.ceil(bottom);
      if (height === this.lastHeight) return;
      this.lastHeight = height;
      this.post('resize', { height });
    };
    new ResizeObserver(report).observe(main);
    report();
  }
}
