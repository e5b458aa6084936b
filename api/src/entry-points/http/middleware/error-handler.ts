import { NextFunction, Request, Response } from 'express';
import { isTransientStoreError } from '../../../data-access/transient-store-error';
import { AppError } from '../../../shared/app-error';
import { Logger } from '../../../shared/logger';
import { drainUnreadBody } from './drain-unread-body';
import { ERROR_STATUS } from './error-status';

/** How long a client should wait before trying again when the service is briefly unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** A busy, stepping-down or unreachable store (after the retries that were safe): 503, not 500. */
function fromStore(error: unknown): AppError | null {
  return isTransientStoreError(error)
    ? AppError.unavailable('The session store is busy or unreachable; try again shortly.')
    : null;
}

export function sendError(res: Response, error: AppError): void {
  // An answer that came late (a response deadline already answered) has no one to go to.
  if (res.headersSent) return;
  res.locals.errorCode = error.code; // for the request metrics: refusals are counted by code
  drainUnreadBody(res.req);
  if (error.code === 'SERVICE_UNAVAILABLE' && !res.getHeader('Retry-After'))
    res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  res.status(ERROR_STATUS[error.code]).json({
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    request_id: res.locals.requestId as string | undefined,
  });
}

/** The one error middleware: everything ends in the contract's error shape. */
export function errorHandler(logger: Logger) {
  // Express recognises error middleware by its four parameters.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- Express tells error middleware by its arity: the fourth parameter must be declared
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const appError = error instanceof AppError ? error : fromStore(error);
    if (appError) {
      if (appError.catastrophic || !appError.callerFault) {
        logger.error(
          { request_id: res.locals.requestId, code: appError.code, err: appError.message },
          'request failed',
        );
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
