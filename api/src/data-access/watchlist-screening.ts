import { Connection } from 'mongoose';
import { MATCH_POLICY } from '../domain/sanctions/match-policy';
import { ScreeningIndex } from '../domain/sanctions/screening-index';
import { SanctionsScreening, ScreeningOutcome, ScreeningSubject } from '../domain/ports/sanctions-screening';
import { Logger } from '../shared/logger';
import { WatchlistRepository } from './watchlist.repository';

export interface ScreeningOptions {
  /** How often the store is asked whether a list has a new version (0: on every screening). */
  refreshIntervalMs: number;
}

/**
 * The sanctions add-on as the decision sees it: an in-memory index of every loaded list, rebuilt
 * when an import flips a list to a new version. While a rebuild runs the previous index keeps
 * serving; only a process with nothing loaded yet waits for it.
 */
export class WatchlistScreening implements SanctionsScreening {
  private index: ScreeningIndex | null = null;
  private signature = '';
  private checkedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly lists: WatchlistRepository,
    private readonly logger: Logger,
    private readonly options: ScreeningOptions,
  ) {}

  async screen(subject: ScreeningSubject): Promise<ScreeningOutcome> {
    await this.refreshIfDue();
    const index = this.index;
    if (!index || index.lists.length === 0) return { verdict: 'SKIPPED', reason: 'NO_LIST_LOADED' };
    const { score, best } = index.screen(subject);
    return {
      verdict: score >= MATCH_POLICY.threshold ? 'MATCH' : 'CLEAR',
      threshold: MATCH_POLICY.threshold,
      score,
      best: score > 0 ? best : null,
      lists: index.lists,
    };
  }

  /** Loads the lists now (at start, so the first applicant does not wait for it). */
  warm(): Promise<void> {
    return this.refreshIfDue();
  }

  /** Entries and name rows in memory, for status output and benchmarks. */
  get loaded(): { entries: number; names: number } {
    return { entries: this.index?.entryCount ?? 0, names: this.index?.rowCount ?? 0 };
  }

  private async refreshIfDue(): Promise<void> {
    if (Date.now() - this.checkedAt < this.options.refreshIntervalMs && this.index) return;
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    const pending = this.refreshing;
    // Nothing to serve meanwhile: wait. Otherwise the old index answers until the new one is built.
    if (!this.index || this.index.lists.length === 0) await pending;
  }

  private async refresh(): Promise<void> {
    this.checkedAt = Date.now();
    try {
      const lists = await this.lists.status();
      const signature = lists.map((list) => `${list.list}@${list.version}`).join(',');
      if (this.index && signature === this.signature) return;
      const started = Date.now();
      const loaded = await Promise.all(lists.map((list) => this.lists.load(list.list, list.version)));
      this.index = new ScreeningIndex(loaded);
      this.signature = signature;
      if (lists.length)
        this.logger.info(
          { lists: signature, entries: this.index.entryCount, ms: Date.now() - started },
          'watchlists loaded for screening',
        );
    } catch (error) {
      // A list replaced mid-load or a store hiccup: keep serving what we have and try again next time.
      this.checkedAt = Number.NEGATIVE_INFINITY;
      if (!this.index) throw error;
      this.logger.warn({ err: (error as Error).message }, 'watchlist reload failed; the previous lists keep serving');
    }
  }
}

/** The composition roots' way to the sanctions add-on. */
export function createSanctionsScreening(
  connection: Connection,
  logger: Logger,
  options: ScreeningOptions,
): WatchlistScreening {
  return new WatchlistScreening(new WatchlistRepository(connection), logger, options);
}
