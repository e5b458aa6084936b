import { NextFunction, Request, Response } from 'express';
import { AppContext } from '../../../app-context';
import { KEY_PREFIX, Tenant } from '../../../domain/environment';
import { AppError } from '../../../shared/app-error';
import { planAt } from '../../../domain/pricing/plan-at';

const KEY_SHAPE = new RegExp(`^(${Object.values(KEY_PREFIX).join('|')})[0-9A-Za-z]{32,}$`);

/** X-Api-Key → the tenant (account + environment). The environment comes from the key alone. */
export function authenticate(ctx: Pick<AppContext, 'accounts' | 'clock'>) {
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
      const resolved = await ctx.accounts.resolveKey(key, ctx.clock.now());
      const account = resolved ? await ctx.accounts.find(resolved.accountId) : null;
      if (!resolved || !account)
        throw new AppError('INVALID_KEY_FORMAT', 'The API key does not match any key on record.');
      const tenant: Tenant = {
        ...resolved,
        watchlist: account.watchlist,
        plan: planAt(account, ctx.clock.now()),
      };
      res.locals.tenant = tenant;
      next();
    } catch (error) {
      next(error);
    }
  };
}

export const tenantOf = (res: Response): Tenant => res.locals.tenant as Tenant;
