import { ManagedProcess } from './child-process';

export interface SupervisionOptions {
  /** First wait before a restart; doubled after each quick death, up to maxBackoffMs. Default 500 ms. */
  minBackoffMs?: number;
  /** Default 30 s. */
  maxBackoffMs?: number;
  /** A process that stayed up this long restarts after minBackoffMs again. Default 60 s. */
  healthyAfterMs?: number;
  log?: (line: string) => void;
}

/**
 * Keeps one process of the local stack running: when it dies it is logged and started again after
 * a backoff (so one that dies at once does not spin), until stop(). In production a supervisor
 * (Kubernetes, systemd) does this; the local stack must not stop because one part crashed.
 */
export class Supervised {
  restarts = 0;
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;
  private backoffMs: number;
  private startedAt = Date.now();
  private readonly options: Required<SupervisionOptions>;

  private constructor(
    readonly name: string,
    private readonly launch: () => ManagedProcess | Promise<ManagedProcess>,
    public current: ManagedProcess,
    options: SupervisionOptions,
  ) {
    this.options = {
      minBackoffMs: 500,
      maxBackoffMs: 30_000,
      healthyAfterMs: 60_000,
      log: (line) => console.error(line),
      ...options,
    };
    this.backoffMs = this.options.minBackoffMs;
    this.watch();
  }

  /** Starts the process (a failure to start the first time is the caller's error) and watches it. */
  static async start(
    name: string,
    launch: () => ManagedProcess | Promise<ManagedProcess>,
    options: SupervisionOptions = {},
  ): Promise<Supervised> {
    return new Supervised(name, launch, await launch(), options);
  }

  private watch(): void {
    this.startedAt = Date.now();
    this.current.child.once('exit', (code, signal) => {
      if (this.stopping) return;
      if (Date.now() - this.startedAt >= this.options.healthyAfterMs) this.backoffMs = this.options.minBackoffMs;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      this.options.log(`${this.name} exited (${how}); restarting in ${this.backoffMs} ms`);
      this.schedule();
    });
  }

  private schedule(): void {
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs);
    this.timer = setTimeout(() => void this.relaunch(), wait);
  }

  private async relaunch(): Promise<void> {
    this.timer = null;
    if (this.stopping) return;
    try {
      const next = await this.launch();
      if (this.stopping) return void (await next.stop());
      this.current = next;
      this.restarts += 1;
      this.options.log(`${this.name} restarted (restart ${this.restarts}, pid ${next.child.pid})`);
      this.watch();
    } catch (error) {
      this.options.log(`${this.name} failed to restart: ${(error as Error).message}; next try in ${this.backoffMs} ms`);
      this.schedule();
    }
  }

  /** Stops it for good: no restart after this. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current.stop();
  }
}
