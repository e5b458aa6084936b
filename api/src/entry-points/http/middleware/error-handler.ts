import { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';
import { Logger } from '../../../shared/logger';
import { drainUnreadBody } from './drain-unread-body';
import { ERROR_STATUS } from './error-status';

/** body-parser's error types, mapped to the contract's codes: a client mistake is never a 500. */
function fromBodyParser(error: { type?: string; status?: number }): AppError | null {
  switch (error.type) {
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than this endpoint accepts.');
    case 'entity.parse.failed':
      return new AppError('VALIDATION_ERROR', 'The request body is not valid JSON.', [{ field: 'body', message: 'malformed JSON' }]);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be UTF-8 JSON.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('VALIDATION_ERROR', 'The request body could not be read.', [{ field: 'body', message: 'incomplete body' }]);
    default:
      return null;
  }
}

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
    const appError = error instanceof AppError ? error : fromBodyParser(error as { type?: string });
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
