import { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../shared/app-error';
import { PHOTO_LIMITS } from '../../../shared/image-probe';
import { readBody } from './read-body';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const IMAGE_BODY_LIMIT_BYTES = PHOTO_LIMITS.maxBytes;

/**
 * A photo upload is the image itself: its content type is checked (415) before a byte is read, its
 * size while it arrives (413). Never inflated: images are compressed already, and inflating is how
 * a small request becomes a large one.
 */
export function imageBody(req: Request, _res: Response, next: NextFunction): void {
  if (!req.is(IMAGE_TYPES)) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the image itself with Content-Type ${IMAGE_TYPES.join(', ')}.`));
    return;
  }
  readBody(req, { maxBytes: IMAGE_BODY_LIMIT_BYTES, inflate: false }).then((body) => {
    if (body.length === 0)
      return next(
        new AppError('VALIDATION_ERROR', 'The request has no image.', [{ field: 'body', message: 'is empty' }]),
      );
    req.body = body;
    next();
  }, next);
}
