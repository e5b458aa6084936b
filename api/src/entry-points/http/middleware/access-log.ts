import { NextFunction, Request, Response } from 'express';
import { Logger } from '../../../shared/logger';

/**
 * One structured line per request. Only the route pattern is logged, never the raw URL, since
 * credential tokens and session ids in paths are capabilities.
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info(
        {
          request_id: res.locals.requestId,
          method: req.method,
          route: req.route?.path ? `${req.baseUrl}${req.route.path}` : 'unmatched',
          status: res.statusCode,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
          account_id: res.locals.tenant?.accountId,
        },
        'request',
      );
    });
    next();
  };
}
