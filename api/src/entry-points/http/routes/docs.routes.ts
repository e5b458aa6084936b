import path from 'node:path';
import express, { Router } from 'express';
import { buildOpenApiDocument } from '../openapi/openapi-document';

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The reference is served from the swagger-ui-dist package itself: no CDN, works offline. */
export function docsRouter(publicBaseUrl: string): Router {
  const router = Router();
  const document = buildOpenApiDocument(publicBaseUrl);
  router.get('/docs/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bioverify API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/reference-init.js"></script>
</body></html>`);
  });
  router.get('/docs/reference-init.js', (_req, res) => {
    res
      .type('application/javascript')
      .send("window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#reference', deepLinking: true });");
  });
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d' }));
  return router;
}
