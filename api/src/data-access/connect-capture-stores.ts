import { Connection } from 'mongoose';
import { AppConfig } from '../config/env';
import { SecretBox } from '../shared/secret-box';
import { CaptureBlobRepository } from './capture-blob.repository';
import { CaptureStateRepository } from './capture-state.repository';

/** The capture stores the API (uploads) and the worker (decisions, clean-up) both open, built one way. */
export async function connectCaptureStores(config: AppConfig, mongo: Connection) {
  const states = new CaptureStateRepository(mongo);
  await states.init();
  return {
    states,
    blobs: new CaptureBlobRepository(mongo, Buffer.from(config.CAPTURE_ENCRYPTION_KEY, 'base64')),
    sealer: new SecretBox(config.CAPTURE_ENCRYPTION_KEY),
    retentionHours: config.CAPTURE_RETENTION_HOURS,
  };
}
