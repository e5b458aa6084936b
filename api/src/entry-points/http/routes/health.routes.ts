import { Router } from 'express';
import { AppContext } from '../../../app-context';

/** /healthz: the process answers. /readyz: every outside dependency answers, each reported by name. */
export function healthRouter(ctx: Pick<AppContext, 'readiness'>, isShuttingDown: () => boolean): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      ctx.readiness.map(async (probe) => {
        try {
          await probe.check();
          return [probe.name, { ok: true }] as const;
        } catch (error) {
          return [probe.name, { ok: false, error: (error as Error).message }] as const;
        }
      }),
    );
    const checks = Object.fromEntries<{ ok: boolean; error?: string }>(results);
    const ready = !isShuttingDown() && results.every(([, r]) => r.ok);
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not_ready', shutting_down: isShuttingDown(), checks });
  });
  return router;
}
