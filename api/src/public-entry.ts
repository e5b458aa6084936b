/**
 * What code outside api/ (benchmarks) may use of the API's insides, so that none of it imports
 * data-access directly (the dependency-cruiser rule benchmarks-through-public-entry refuses a benchmark that does).
 * Only what a benchmark measures or must read back belongs here, never a way around a use case.
 */
export { connectMongo } from './data-access/mongo-connection';
export { createSanctionsScreening, WatchlistScreening } from './data-access/watchlist-screening';
export { WatchlistRepository } from './data-access/watchlist.repository';
export { WATCHLIST_FORMATS } from './data-access/watchlists/parsers/watchlist-formats';
export { webhookSettlementModel } from './data-access/webhook-settlement.model';
export { PiiVault } from './data-access/pii-vault';
export { PERSONAL_SESSION_FIELDS } from './data-access/session.model';
export type { SessionDocument } from './data-access/session.model';
export { SessionRepository } from './data-access/session.repository';
export { DeliveryLogRepository } from './data-access/delivery-log.repository';
export type { NewDeliveryAttempt } from './data-access/delivery-log.repository';
export { PkijsChipVerifier } from './data-access/chip/chip-verifier';
export { loadTrustAnchors } from './data-access/chip-trust/trust-anchors';
export { searchKnownFaces } from './domain/known-face/known-face-search';
export type { KnownFace } from './domain/ports/known-faces';
export { dctHash, hammingDistance } from './data-access/perceptual-hash';
