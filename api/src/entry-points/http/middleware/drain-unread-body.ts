import { Request } from 'express';

/** How long the rest of a refused body is read and dropped before the connection is cut (nginx's lingering close). */
export const LINGER_MS = 2_000;

/**
 * A request refused before its body was read (a bad token, a body over the limit, a malformed
 * part) still has bytes on the way. Closing at once would reset the connection under a client
 * still sending, and it could lose the answer; reading on without limit would let it hold the
 * socket. So the rest is read and dropped for at most LINGER_MS, then the connection is cut.
 */
export function drainUnreadBody(req: Request): void {
  if (req.complete) return;
  const cut = setTimeout(() => req.socket.destroy(), LINGER_MS);
  cut.unref();
  req.once('end', () => clearTimeout(cut));
  req.once('close', () => clearTimeout(cut));
  req.resume();
}
