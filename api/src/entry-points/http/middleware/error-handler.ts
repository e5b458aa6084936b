import { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';
import { Logger } from '../../../shared/logger';
import { drainUnreadBody } from './drain-unread-body';
import { ERROR_STATUS } from './error-status';

export function sendError(res: Response, error: AppError): void {
  // An answer that came late (a response deadline already answered) has no one to go to.
  if (res.headersSent) return;
  res.locals.errorCode = error.code; // for the request metrics: refusals are counted by code
  drainUnreadBody(res.req);
  res.status(ERROR_STATUS[error.code]).json({
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    request_id: res.locals.requestId,
  });
}

/** The one error middleware: everything ends in the contract's error shape. */
export function errorHandler(logger: Logger) {
  // Express recognises error middleware by its four parameters.
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const appError = error instanceof AppError ? error : null;
    if (appError) {
      if (appError.catastrophic || !appError.callerFault) {
        logger.error({ request_id: res.locals.requestId, code: appError.code, err: appError.message }, 'request failed');
      }
      sendError(res, appError);
      return;
    }
    logger.error({ request_id: res.locals.requestId, err: error }, 'unexpected error');
    sendError(res, new AppError('INTERNAL', 'Something went wrong on our side; it has been logged.'));
  };
}

export function notFoundHandler(_req: Request, res: Response): void {
  sendError(res, new AppError('NOT_FOUND', 'No such endpoint.'));
}
