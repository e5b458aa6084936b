import { Router } from 'express';
import { AppContext } from '../../../app-context';
import { listDeliveries } from '../../../domain/usecases/list-deliveries/list-deliveries.usecase';
import { AppError } from '../../../shared/app-error';
import { SESSION_ID_PATTERN } from '../../../shared/random-id';
import { authenticate, tenantOf } from '../middleware/authenticate';
import { rateLimit } from '../middleware/rate-limit';
import { timeStage } from '../middleware/stage-timing';

/** GET /v1/sessions/{id}/webhooks: the delivery log of one session, for its owner. */
export function webhooksRouter(ctx: AppContext): Router {
  const router = Router();
  router.get(
    '/:id/webhooks',
    timeStage('authenticate', authenticate(ctx)),
    timeStage('rate_limit', rateLimit(ctx)),
    timeStage('deliveries', async (req, res) => {
      const id = String(req.params.id);
      if (!SESSION_ID_PATTERN.test(id)) throw AppError.notFound('session');
      res.json(
        await listDeliveries(
          { sessions: ctx.sessions, deliveryLog: ctx.deliveryLog, outbox: ctx.outbox },
          tenantOf(res),
          id,
        ),
      );
    }),
  );
  return router;
}
