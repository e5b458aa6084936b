import { NextFunction, Request, Response } from 'express';
import { AppContext } from '../../../app-context';
import { KEY_PREFIX, Tenant } from '../../../domain/environment';
import { AppError } from '../../../shared/app-error';

const KEY_SHAPE = new RegExp(`^(${Object.values(KEY_PREFIX).join('|')})[0-9A-Za-z]{32,}$`);

/**
 * X-Api-Key → the tenant (account + environment). The environment comes from the key alone.
 * A key served from the cache is counted against its rate limit here, in the same Redis call
 * that vouches for the cache (cached-authentication.ts); rateLimit() then only sets the headers.
 */
export function authenticate(ctx: Pick<AppContext, 'authentication' | 'clock'>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const key = req.header('x-api-key');
      if (key === undefined || key === '') throw new AppError('UNAUTHORIZED', 'The X-Api-Key header is missing.');
      if (!KEY_SHAPE.test(key)) {
        throw new AppError(
          'INVALID_KEY_FORMAT',
          'The API key must start with vk_sand_ or vk_live_ followed by at least 32 letters or digits.',
        );
      }
      const authenticated = await ctx.authentication.authenticate(key, ctx.clock.now());
      if (!authenticated) throw new AppError('INVALID_KEY_FORMAT', 'The API key does not match any key on record.');
      res.locals.tenant = authenticated.tenant;
      res.locals.rateLimitCounted = authenticated.counted;
      next();
    } catch (error) {
      next(error);
    }
  };
}

export const tenantOf = (res: Response): Tenant => res.locals.tenant as Tenant;
