/**
 * The file the front hands large request tensors to an executor process through: in /dev/shm
 * (memory, never disk), unlinked as soon as it is open, so nothing outlives the two processes that
 * hold it. Through the socket pair a request larger than the socket's buffer (about 200 KB; one
 * face-embedding row is 270 KB) crosses in rounds, each waiting for the executor to read and for the
 * front to wake and write the rest; through the file the front writes it in one call and the
 * executor reads it in one as the header arrives.
 */
import { closeSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Below this a frame crosses the socket in one write, and the file would only add two calls. */
export const SHARED_MIN_BYTES = 128 * 1024;
/** tmpfs keeps the pages of the largest batch written; larger batches take the socket. */
export const SHARED_MAX_BYTES = 4 * 1024 * 1024;

let opened = 0;

/** An open, already unlinked file in `dir`; undefined where there is none to be had (no /dev/shm). */
export function openSharedFile(dir = '/dev/shm'): number | undefined {
  const path = join(dir, `inference-executor-${process.pid}-${opened++}`);
  let fd: number;
  try {
    fd = openSync(path, 'wx+', 0o600);
  } catch {
    return undefined;
  }
  try {
    unlinkSync(path);
  } catch {
    closeSync(fd);
    return undefined;
  }
  return fd;
}
