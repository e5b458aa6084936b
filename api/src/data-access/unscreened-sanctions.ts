import { SanctionsScreening, ScreeningOutcome } from '../domain/ports/sanctions-screening';

/**
 * The screening a deployment has before any watchlist is loaded: it never claims CLEAR without
 * having screened, so every account with the add-on gets SKIPPED (contract "Decision").
 */
export const unscreenedSanctions: SanctionsScreening = {
  screen: async (): Promise<ScreeningOutcome> => ({ verdict: 'SKIPPED', reason: 'NO_LIST_LOADED' }),
};
