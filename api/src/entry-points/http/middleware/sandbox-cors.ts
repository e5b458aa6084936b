import { NextFunction, Request, Response } from 'express';
import { KEY_PREFIX } from '../../../domain/environment';
import { AppError } from '../../../shared/app-error';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Api-Key';
const EXPOSED_HEADERS =
  'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed, X-Request-Id';
const PREFLIGHT_MAX_AGE_S = '600';

/** A browser on the API's own origin (the /docs reference) is not cross-origin; curl and backends send no Origin at all. */
function isCrossOrigin(req: Request, ownOrigin: string): boolean {
  const origin = req.header('origin');
  if (origin === undefined || origin === ownOrigin) return false;
  try {
    return new URL(origin).host !== req.header('host');
  } catch {
    return true; // "null" (a sandboxed frame, a file) is a browser page on no origin of ours
  }
}

/**
 * CORS on `POST /v1/sessions`, for sandbox keys only (contract, "Widget events": sandbox keys work
 * in the browser for quick trials, production keys are refused). A preflight cannot show the key,
 * so every cross-origin preflight is granted; the request itself then decides by the key's prefix
 * (the environment is the key's alone): a sandbox key gets the CORS headers, a production key gets
 * 403 FORBIDDEN without them, before the key is looked up or counted, so nothing is created and the
 * page cannot read the answer. No credentials (cookies) are involved, so `*` is the allowed origin.
 * Mount on /v1/sessions ahead of the sessions routers.
 */
export function sandboxCors(publicBaseUrl: string) {
  const ownOrigin = new URL(publicBaseUrl).origin;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path !== '/' || !isCrossOrigin(req, ownOrigin)) return next();
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Methods', 'POST');
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_S);
      res.status(204).end();
      return;
    }
    if (req.method !== 'POST') return next();
    const key = req.header('x-api-key') ?? '';
    if (key.startsWith(KEY_PREFIX.production)) {
      return next(
        new AppError(
          'FORBIDDEN',
          'A production API key cannot be used from a browser page; create the session on your backend and pass its verification_url.',
        ),
      );
    }
    if (key.startsWith(KEY_PREFIX.sandbox)) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    next();
  };
}
