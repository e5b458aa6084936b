import { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';
import { sendError } from './error-handler';

/**
 * Every answer starts within `responseMs` of the request being in (its body read), or the client
 * gets a 503 in the contract's shape instead of a socket held open. A body the route never reads
 * is bounded by the server's request deadline, so until the body ends the clock allows both.
 * Event streams send their headers at once and are not cut.
 */
export function responseDeadline(requestMs: number, responseMs: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (res.headersSent || res.writableEnded) return;
        sendError(
          res,
          AppError.unavailable(
            `The request did not finish within ${responseMs / 1000} s; retry it (with the same Idempotency-Key, where one was sent).`,
          ),
        );
      }, ms);
      timer.unref();
    };
    arm(req.complete ? responseMs : requestMs + responseMs);
    if (!req.complete) req.once('end', () => arm(responseMs));
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
