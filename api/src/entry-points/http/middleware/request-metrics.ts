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
/** The part of Express's `req.route` (typed any) read here. */
type MatchedRoute = { path?: string } | undefined;

function recordMatchedRoute(req: Request): () => string | undefined {
  let route: MatchedRoute;
  let pattern: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: MatchedRoute) => {
      route = value;
      if (value?.path !== undefined) pattern = `${req.baseUrl}${value.path === '/' && req.baseUrl ? '' : value.path}`;
    },
  });
  return () => pattern;
}

/**
 * Why a capture write was refused: the contract's error code for an HTTP error, or for an answered
 * write that asks for a retake, the reason the answer gives (e.g. DOCUMENT_UNREADABLE on a 200).
 */
function refusalOf(res: Response, answer: unknown): string | null {
  if (res.statusCode >= 400) return (res.locals.errorCode as string | undefined) ?? `HTTP_${res.statusCode}`;
  const body = (answer ?? {}) as { reason?: unknown; face_found?: unknown; retake?: unknown };
  if (typeof body.reason === 'string') return body.reason;
  if (body.face_found === false) return 'FACE_NOT_DETECTED';
  return body.retake === true ? 'RETAKE_REQUESTED' : null;
}

/** Keeps the JSON body a handler answers with, so the capture counters can read its verdict. */
function keepAnswer(res: Response): () => unknown {
  let answer: unknown;
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    answer = body;
    return json(body);
  };
  return () => answer;
}

/**
 * Times every request by route pattern (never the raw URL, which holds session ids), and counts
 * the sessions created and the capture writes with the error code of each refusal.
 */
export function requestMetrics(metrics: ApiMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const matched = recordMatchedRoute(req);
    const answer = keepAnswer(res);
    res.locals.recordStage = (stage: string, seconds: number) => metrics.stageSeconds.observe({ stage }, seconds);
    res.once('finish', () => {
      const route = matched() ?? (res.statusCode === 404 ? 'unmatched' : 'static');
      const status = String(res.statusCode);
      metrics.requestSeconds.observe(
        { method: req.method, route, status },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
      if (req.method === 'POST' && route === '/v1/sessions' && res.statusCode === 201) {
        metrics.sessionsCreated.inc({
          environment: (res.locals.tenant as Tenant | undefined)?.environment ?? 'unknown',
        });
      }
      const step = req.method !== 'GET' ? CAPTURE_WRITE.exec(route)?.[1] : undefined;
      if (step) {
        const refusal = refusalOf(res, answer());
        metrics.captureUploads.inc({ step, outcome: refusal ? 'refused' : 'accepted' });
        if (refusal) metrics.captureRefusals.inc({ step, reason: refusal });
      }
    });
    next();
  };
}
