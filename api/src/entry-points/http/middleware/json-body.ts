import { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';
import { readBody } from './read-body';

/** Room for every field at its maximum (metadata alone may be 8 KiB) with margin, and no more. */
export const JSON_BODY_LIMIT_BYTES = 32 * 1024;

const hasBody = (req: Request) =>
  Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * JSON bodies only: anything else is a 415 before a byte of it is read. The body is held to 32 KiB
 * after inflating (gzip, deflate and br are accepted), refused the moment it passes that, and kept
 * as raw text too so metadata can be echoed byte for byte. Goes after authentication.
 */
export const jsonBody = jsonBodyUpTo(JSON_BODY_LIMIT_BYTES);

/** The same parser with its own bound, for the one route whose body is larger (the chip files). */
export function jsonBodyUpTo(maxBytes: number) {
  return (req: Request, res: Response, next: NextFunction): void => parseJsonBody(req, res, next, maxBytes);
}

function parseJsonBody(req: Request, _res: Response, next: NextFunction, maxBytes: number): void {
  if (!hasBody(req)) return next();
  if (!req.is('application/json'))
    return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.'));
  const charset = /;\s*charset=("?)([^";]+)\1/i.exec(req.headers['content-type'] ?? '')?.[2]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8')
    return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be UTF-8 JSON.'));
  readBody(req, { maxBytes, inflate: true }).then((bytes) => {
    const text = bytes.toString('utf8');
    (req as Request & { rawBody?: string }).rawBody = text;
    try {
      req.body = text.length === 0 ? {} : (JSON.parse(text) as unknown); // the routes validate it with their schemas
    } catch {
      return next(
        new AppError('VALIDATION_ERROR', 'The request body is not valid JSON.', [
          { field: 'body', message: 'malformed JSON' },
        ]),
      );
    }
    next();
  }, next);
}

export const rawBodyOf = (req: Request): string => (req as Request & { rawBody?: string }).rawBody ?? '';
