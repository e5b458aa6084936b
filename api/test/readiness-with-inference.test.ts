import { tinyRepository } from '../../inference/test/fixtures/tiny-repository';
import { InferenceService, startInferenceService } from '../../scripts/test-support/inference-service';
import type { Readiness } from './support/api-bodies';
import { call } from './support/http';
import { startTestApi, TestApi } from './support/test-api';

describe('/readyz with the inference service (contract: store, queue and inference reachable)', () => {
  let inference: InferenceService;
  let api: TestApi;

  beforeAll(async () => {
    inference = await startInferenceService(tinyRepository());
    api = await startTestApi({ INFERENCE_URL: inference.address });
  });
  afterAll(async () => {
    await api.stop();
    await inference.stop().catch(() => undefined);
  });

  it('reports inference ready once the real service is serving', async () => {
    const ready = await call<Readiness>(api.baseUrl, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json.checks.inference).toEqual({ ok: true });
  });

  it('stops reporting ready, naming inference, when the service goes away', async () => {
    await inference.stop();
    const ready = await call<Readiness>(api.baseUrl, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json.checks.inference.ok).toBe(false);
    expect(ready.json.checks.store).toEqual({ ok: true });
  });
});
