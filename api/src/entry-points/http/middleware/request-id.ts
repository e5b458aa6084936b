import { randomUUID } from 'node:crypto';
import { NextFunction, Request, Response } from 'express';

const SAFE_INCOMING_ID = /^[A-Za-z0-9_.:-]{8,64}$/;

/** Every response carries X-Request-Id; a caller's own id is kept when it is safe to log. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  const id = incoming && SAFE_INCOMING_ID.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}
