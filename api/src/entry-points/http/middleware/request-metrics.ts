import { NextFunction, Request, Response } from 'express';
import { Tenant } from '../../../domain/environment';
import { ApiMetrics } from '../api-metrics';

/** The capture writes: `/v1/capture/:id/<step>` (and `/:id/document/:side`). */
const CAPTURE_WRITE = /^\/v1\/capture\/:id\/([a-z]+)/;

/**
 * Express restores `req.baseUrl` when an error leaves a sub-router, so by the time the response
 * finishes the mount path may be gone. The full pattern is therefore taken when the router assigns
 * `req.route`, while the mount path is still set.
 */
function recordMatchedRoute(req: Request): () => string | undefined {
  let route: Request['route'];
  let pattern: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: Request['route']) => {
      route = value;
      if (value?.path !== undefined) pattern = `${req.baseUrl}${value.path === '/' && req.baseUrl ? '' : value.path}`;
    },
  });
  return () => pattern;
}

/**
 * Times every request by route pattern (never the raw URL, which holds session ids), and counts
 * the sessions created and the capture writes with the error code of each refusal.
 */
export function requestMetrics(metrics: ApiMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const matched = recordMatchedRoute(req);
    res.once('finish', () => {
      const route = matched() ?? (res.statusCode === 404 ? 'unmatched' : 'static');
      const status = String(res.statusCode);
      metrics.requestSeconds.observe({ method: req.method, route, status }, Number(process.hrtime.bigint() - started) / 1e9);
      if (req.method === 'POST' && route === '/v1/sessions' && res.statusCode === 201) {
        metrics.sessionsCreated.inc({ environment: (res.locals.tenant as Tenant | undefined)?.environment ?? 'unknown' });
      }
      const step = req.method !== 'GET' ? CAPTURE_WRITE.exec(route)?.[1] : undefined;
      if (step) {
        const refused = res.statusCode >= 400;
        metrics.captureUploads.inc({ step, outcome: refused ? 'refused' : 'accepted' });
        if (refused) metrics.captureRefusals.inc({ step, reason: (res.locals.errorCode as string | undefined) ?? `HTTP_${status}` });
      }
    });
    next();
  };
}
