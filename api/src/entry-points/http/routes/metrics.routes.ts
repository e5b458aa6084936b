import { Router } from 'express';
import { Registry } from 'prom-client';

/** GET /metrics for Prometheus. No key: serve it on the cluster network only, never publicly (k8s/README.md). */
export function metricsRouter(registry: Registry): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
