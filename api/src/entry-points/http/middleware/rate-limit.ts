import { NextFunction, Request, Response } from 'express';
import { AppContext } from '../../../app-context';
import { RateLimitOutcome } from '../../../data-access/rate-limit.repository';
import { rateLimitFor } from '../../../domain/rate-limits/plan-rate-limit';
import { AppError } from '../../../shared/app-error';
import { tenantOf } from './authenticate';

/**
 * Enforces the plan's limit per API key (contract.md, "Rate limits, enforced"): every keyed
 * response carries RateLimit-Limit / -Remaining / -Reset (the IETF draft's fields, reset in
 * seconds); over the limit, 429 RATE_LIMITED with Retry-After. Goes right after authentication.
 * If Redis cannot count, the request goes through unlimited (and readiness reports the outage):
 * refusing every integrator because a counter is down would be the worse failure. A request
 * authenticated from the cache was already counted (authenticate.ts).
 */
export function rateLimit(ctx: Pick<AppContext, 'rateLimits' | 'logger'>) {
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    const tenant = tenantOf(res);
    let outcome = res.locals.rateLimitCounted as RateLimitOutcome | null | undefined;
    try {
      outcome ??= await ctx.rateLimits.consume(tenant.keyId, rateLimitFor(tenant));
    } catch (error) {
      ctx.logger.warn(
        { request_id: res.locals.requestId, err: (error as Error).message },
        'rate limit not counted (Redis unavailable)',
      );
      return next();
    }
    res.setHeader('RateLimit-Limit', String(outcome.limit));
    res.setHeader('RateLimit-Remaining', String(outcome.remaining));
    res.setHeader('RateLimit-Reset', String(outcome.resetSeconds));
    if (outcome.allowed) return next();
    res.setHeader('Retry-After', String(outcome.resetSeconds));
    next(
      new AppError(
        'RATE_LIMITED',
        `This API key has used its ${outcome.limit} requests for this window; retry after ${outcome.resetSeconds} s.`,
      ),
    );
  };
}
