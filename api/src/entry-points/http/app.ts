import express, { Express } from 'express';
import { AppContext } from '../../app-context';
import { ApiMetrics } from './api-metrics';
import { accessLog } from './middleware/access-log';
import { errorHandler, notFoundHandler } from './middleware/error-handler';
import { requestId } from './middleware/request-id';
import { requestMetrics } from './middleware/request-metrics';
import { responseDeadline } from './middleware/response-deadline';
import { sandboxCors } from './middleware/sandbox-cors';
import { docsRouter } from './routes/docs.routes';
import { healthRouter } from './routes/health.routes';
import { hostedRouter } from './routes/hosted.routes';
import { metricsRouter } from './routes/metrics.routes';
import { credentialsRouter, pricingRouter } from './routes/public.routes';
import { captureRouter } from './routes/capture.routes';
import { sessionsRouter } from './routes/sessions.routes';
import { webhooksRouter } from './routes/webhooks.routes';

/** The HTTP surface: routes only translate HTTP to use cases; no logic lives here. */
export function createHttpApp(
  ctx: AppContext,
  isShuttingDown: () => boolean = () => false,
  metrics: ApiMetrics = new ApiMetrics(),
): Express {
  metrics.observeStore(ctx.storeTelemetry);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestId);
  app.use(accessLog(ctx.logger));
  app.use(requestMetrics(metrics));
  app.use(
    responseDeadline(ctx.config.HTTP_REQUEST_TIMEOUT_SECONDS * 1000, ctx.config.HTTP_RESPONSE_TIMEOUT_SECONDS * 1000),
  );
  app.use(healthRouter(ctx, isShuttingDown));
  app.use(metricsRouter(metrics.registry));
  app.use(docsRouter(ctx.config.PUBLIC_BASE_URL));
  app.use('/v1/sessions', sandboxCors(ctx.config.PUBLIC_BASE_URL));
  app.use('/v1/sessions', webhooksRouter(ctx));
  app.use('/v1/sessions', sessionsRouter(ctx));
  app.use('/v1/capture', captureRouter(ctx));
  app.use('/v1/credentials', credentialsRouter(ctx));
  app.use('/v1/pricing', pricingRouter(ctx));
  app.use(hostedRouter(ctx));
  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger));
  return app;
}
