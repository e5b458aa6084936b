import { Request, Response } from 'express';

const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events: the capture status (or progress) now, then again on every change, until it
 * is decided or the client goes away. The API is stateless, so each stream polls the store (reads
 * by _id per interval) rather than waiting on another process's in-memory event.
 */
export async function streamEvents<T>(
  req: Request,
  res: Response,
  first: T,
  read: () => Promise<T>,
  pollMs: number,
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let last = JSON.stringify(first);
  let closed = false;
  const send = (text: string) => res.write(`data: ${text}\n\n`);
  send(last);
  const finished = (text: string) => {
    const status = JSON.parse(text) as { decision?: string; status?: string };
    return status.decision === 'done' || status.status === 'EXPIRED';
  };
  if (finished(last)) {
    res.end();
    return;
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      if (closed) return;
      closed = true;
      clearInterval(poll);
      clearInterval(heartbeat);
      resolve();
    };
    const poll = setInterval(() => {
      read().then(
        (status) => {
          const text = JSON.stringify(status);
          if (closed || text === last) return;
          last = text;
          send(text);
          if (finished(text)) {
            stop();
            res.end();
          }
        },
        () => undefined, // a store hiccup: the next poll tries again
      );
    }, pollMs);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    req.on('close', stop);
  });
}
