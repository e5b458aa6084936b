import express, { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';

/** Room for every field at its maximum (metadata alone may be 8 KiB) with margin, and no more. */
export const JSON_BODY_LIMIT = '32kb';

const parser = express.json({
  limit: JSON_BODY_LIMIT,
  strict: false,
  type: () => true,
  verify: (req, _res, buf) => {
    // The raw text lets metadata be echoed byte for byte.
    (req as Request & { rawBody?: string }).rawBody = buf.toString('utf8');
  },
});

/** JSON bodies only: anything else is a 415, before a byte of it is parsed. */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is('application/json')) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.'));
    return;
  }
  parser(req, res, next);
}

export const rawBodyOf = (req: Request): string => (req as Request & { rawBody?: string }).rawBody ?? '';
