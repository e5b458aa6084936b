import { Clock } from '../../../shared/clock';
import { blobIdsOf, captureStateId } from '../../capture/capture-state';
import { CaptureBlobStore, CaptureStateStore } from '../../ports/capture-stores';

export interface EndCaptureDeps {
  states: CaptureStateStore;
  blobs: CaptureBlobStore;
  clock: Clock;
  /** CAPTURE_RETENTION_HOURS; undefined deletes the images as soon as the session ends. */
  retentionHours?: number;
}

/**
 * The session attempt ended (decided, expired or cancelled): its captured images are deleted now,
 * or kept for the deployment's retention period and then deleted by the capture sweep. Safe to
 * call again after a crash: deleting what is gone is a no-op.
 */
export async function endCapture(deps: EndCaptureDeps, sessionId: string, attempt: number): Promise<void> {
  const id = captureStateId(sessionId, attempt);
  const state = await deps.states.find(sessionId, attempt);
  if (!state || state.purged_at) return;
  const now = deps.clock.now();
  if (deps.retentionHours !== undefined) {
    await deps.states.schedulePurge(id, new Date(now.getTime() + deps.retentionHours * 3_600_000));
    return;
  }
  await deps.blobs.delete(blobIdsOf(state));
  await deps.states.markPurged(id, now);
}

/** The sweep's half of retention: captures whose period has run out lose their images. */
export async function purgeDueCaptures(deps: EndCaptureDeps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.states.due(now);
  for (const state of due) {
    await deps.blobs.delete(blobIdsOf(state));
    await deps.states.markPurged(state._id, now);
  }
  return due.length;
}

/** Redaction: every attempt's captured images deleted now, whatever the retention period. */
export async function eraseCaptures(
  deps: Pick<EndCaptureDeps, 'states' | 'blobs' | 'clock'>,
  sessionId: string,
  lastAttempt: number,
): Promise<void> {
  for (let attempt = 1; attempt <= lastAttempt; attempt += 1) {
    const state = await deps.states.find(sessionId, attempt);
    if (!state) continue;
    await deps.blobs.delete(blobIdsOf(state));
    if (!state.purged_at || blobIdsOf(state).length > 0) await deps.states.markPurged(state._id, deps.clock.now());
  }
}
