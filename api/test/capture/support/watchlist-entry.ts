import { WatchlistRepository } from '../../../src/data-access/watchlist.repository';
import type { CaptureStack } from './capture-stack';

/** Replaces `list` in the stack's store with one listed person, as an imported sanctions list would hold them. */
export async function listOnWatchlist(
  stack: CaptureStack,
  list: string,
  entry: { id: string; name: string; dob: string },
): Promise<void> {
  await new WatchlistRepository(stack.stack.store).replaceList(
    list,
    'ftm-jsonl',
    [{ id: entry.id, names: [entry.name], dobs: [entry.dob], nationalities: [] }],
    new Date(),
  );
}
