import { NextFunction, Request, Response } from 'express';
import { Tenant } from '../../../domain/environment';
import { Logger } from '../../../shared/logger';

/**
 * One structured line per request. Only the route pattern is logged, never the raw URL, since
 * credential tokens and session ids in paths are capabilities.
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      logger.info(
        {
          request_id: res.locals.requestId as string | undefined,
          method: req.method,
          route: routePath ? `${req.baseUrl}${routePath}` : 'unmatched',
          status: res.statusCode,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
          account_id: (res.locals.tenant as Tenant | undefined)?.accountId,
        },
        'request',
      );
    });
    next();
  };
}
