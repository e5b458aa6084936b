import { NextFunction, Request, Response } from 'express';
import { AppContext } from '../../../app-context';
import { IdempotencyRepository } from '../../../data-access/idempotency.repository';
import { AppError } from '../../../shared/app-error';
import { rawBodyOf } from './json-body';
import { tenantOf } from './authenticate';

const KEY_SHAPE = /^[\x20-\x7E]{1,255}$/;

/** The session id this request must create under (reserved by its Idempotency-Key), if any. */
export const reservedSessionIdOf = (res: Response): string | undefined =>
  res.locals.reservedSessionId as string | undefined;

/**
 * `Idempotency-Key` (contract.md): the first request with a key runs and its response is stored
 * before it is sent; a repeat with the same request replays it byte for byte with
 * `Idempotent-Replayed: true`; another request under the key is 422 IDEMPOTENCY_KEY_REUSED; a
 * repeat while the first still runs is 409. The runner holds the key on a lease it renews while it
 * runs, so a key whose runner died is usable again within one lease (IDEMPOTENCY_LOCK_SECONDS).
 * Goes after authentication and body parsing.
 */
export function idempotency(ctx: Pick<AppContext, 'idempotency' | 'clock' | 'logger'>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const key = req.header('idempotency-key');
      if (key === undefined) return next();
      if (!KEY_SHAPE.test(key)) {
        throw new AppError(
          'VALIDATION_ERROR',
          'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
          [{ field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }],
        );
      }
      const recordId = IdempotencyRepository.recordId(tenantOf(res).keyId, key);
      const requestHash = IdempotencyRepository.requestHash(req.method, `${req.baseUrl}${req.path}`, rawBodyOf(req));
      const claim = await ctx.idempotency.claim(recordId, requestHash, ctx.clock.now());
      switch (claim.kind) {
        case 'mismatch':
          throw new AppError(
            'IDEMPOTENCY_KEY_REUSED',
            'This Idempotency-Key was already used with a different request; use a new key.',
          );
        case 'in-flight':
          res.setHeader('Retry-After', '1');
          throw AppError.conflict('A request with this Idempotency-Key is still being processed; retry shortly.');
        case 'replay':
          res.status(claim.status).setHeader('Idempotent-Replayed', 'true');
          if (claim.contentType) res.setHeader('Content-Type', claim.contentType);
          res.send(Buffer.from(claim.body, 'utf8'));
          return;
        case 'run':
          res.locals.reservedSessionId = claim.reservedSessionId;
          keepLeaseWhileRunning(res, ctx, claim.recordId, claim.holder);
          storeBeforeSending(res, ctx, claim.recordId);
          return next();
      }
    } catch (error) {
      next(error);
    }
  };
}

/** Renews the lease a third of the way through each term until the response is out (or the client gone). */
function keepLeaseWhileRunning(
  res: Response,
  ctx: Pick<AppContext, 'idempotency' | 'logger' | 'clock'>,
  recordId: string,
  holder: string,
): void {
  const timer = setInterval(() => {
    ctx.idempotency.renew(recordId, holder, ctx.clock.now()).then(
      (held) => {
        if (!held) clearInterval(timer);
      },
      (error: Error) =>
        ctx.logger.warn({ request_id: res.locals.requestId, err: error.message }, 'idempotency lease not renewed'),
    );
  }, ctx.idempotency.leaseMs / 3);
  timer.unref();
  res.once('close', () => clearInterval(timer));
}

/** The response is written to the record before a byte of it leaves, so a client never sees an answer a repeat would not replay. */
function storeBeforeSending(
  res: Response,
  ctx: Pick<AppContext, 'idempotency' | 'logger' | 'clock'>,
  recordId: string,
): void {
  const send = res.send.bind(res);
  res.send = ((body?: unknown) => {
    res.send = send;
    const text =
      typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body ?? null);
    const contentType = res.getHeader('Content-Type');
    const stored =
      res.statusCode >= 500
        ? ctx.idempotency.unlock(recordId)
        : ctx.idempotency.complete(
            recordId,
            res.statusCode,
            contentType === undefined ? null : String(contentType),
            text,
            ctx.clock.now(),
          );
    stored
      .catch((error: Error) =>
        ctx.logger.warn({ request_id: res.locals.requestId, err: error.message }, 'idempotency record not stored'),
      )
      .finally(() => send(body));
    return res;
  }) as Response['send'];
}
