import { NextFunction, Request, Response } from 'express';
import { CaptureDeps } from '../../../domain/usecases/capture/capture-deps';
import { authorizeCaptureWrite } from '../../../domain/usecases/capture/capture-access';
import { AppError } from '../../../shared/app-error';
import { captureIdOf, captureTokenOf } from '../capture-request';
import { InFlightLimiter } from './in-flight-limiter';

export interface UploadBounds {
  perCapture: number;
  perAddress: number;
}

/**
 * What an upload passes before a byte of its body is read: a well-formed request (no compressed
 * body: images are compressed already, and inflating is how a small request becomes a large one),
 * the capture token, and a free slot for its capture and its client address. A refusal closes the
 * connection without reading the body; the slots are given back when the response ends or the
 * client goes away.
 */
export function captureUploadGate(deps: CaptureDeps, bounds: UploadBounds) {
  const captures = new InFlightLimiter(bounds.perCapture);
  const addresses = new InFlightLimiter(bounds.perAddress);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const encoding = req.header('content-encoding');
      if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send uploads without Content-Encoding: images are compressed already.',
        );
      }
      const id = captureIdOf(req);
      await authorizeCaptureWrite(deps, id, captureTokenOf(req));
      const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      if (!captures.acquire(id)) throw tooMany(res, `A capture takes at most ${bounds.perCapture} uploads at once.`);
      if (!addresses.acquire(address)) {
        captures.release(id);
        throw tooMany(res, `A client address may send at most ${bounds.perAddress} uploads at once.`);
      }
      res.once('close', () => {
        captures.release(id);
        addresses.release(address);
      });
      next();
    } catch (error) {
      next(error);
    }
  };
}

function tooMany(res: Response, message: string): AppError {
  res.setHeader('Retry-After', '1');
  return new AppError('RATE_LIMITED', message);
}
