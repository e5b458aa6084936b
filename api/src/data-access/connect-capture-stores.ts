import { Connection } from 'mongoose';
import { AppConfig } from '../config/env';
import { CaptureBlobRepository } from './capture-blob.repository';
import { CaptureStateRepository } from './capture-state.repository';
import { PiiVault } from './pii-vault';

/** The capture stores the API (uploads) and the worker (decisions, clean-up) both open, built one way. */
export async function connectCaptureStores(config: AppConfig, mongo: Connection, vault: PiiVault) {
  const states = new CaptureStateRepository(mongo);
  await states.init();
  return {
    states,
    blobs: new CaptureBlobRepository(mongo, vault),
    sealer: vault,
    retentionHours: config.CAPTURE_RETENTION_HOURS,
  };
}
