import { Router } from 'express';
import { AppContext } from '../../../app-context';
import { checkCredential } from '../../../domain/usecases/check-credential/check-credential.usecase';
import { getPrice } from '../../../domain/usecases/get-price/get-price.usecase';
import { authenticate, tenantOf } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rate-limit';

/** GET /v1/credentials/{token}: public and callable from any browser origin. */
export function credentialsRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/:token', async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'no-store');
    res.json(
      await checkCredential(ctx, String(req.params.token), (res.locals.requestId as string | undefined) ?? null),
    );
  });
  return router;
}

export function pricingRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx), rateLimit(ctx));
  router.get('/:country', (req, res) => {
    res.json(getPrice(tenantOf(res), String(req.params.country)));
  });
  return router;
}
