import express, { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const IMAGE_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

// Never inflated: the upload gate refuses a Content-Encoding, and the limit counts the bytes as sent.
const parser = express.raw({ type: () => true, limit: IMAGE_BODY_LIMIT_BYTES, inflate: false });

/** A photo upload is the image itself: its content type is checked (415) before a byte is read, its size by the parser (413). */
export function imageBody(req: Request, res: Response, next: NextFunction): void {
  if (!req.is(IMAGE_TYPES)) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the image itself with Content-Type ${IMAGE_TYPES.join(', ')}.`));
    return;
  }
  parser(req, res, (error?: unknown) => {
    if (error) return next(error);
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
      return next(new AppError('VALIDATION_ERROR', 'The request has no image.', [{ field: 'body', message: 'is empty' }]));
    }
    next();
  });
}
