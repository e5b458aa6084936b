import { waitFor } from '../../scripts/stack/child-process';
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

  it('reports ready again within a few seconds of the service coming back, after being down long enough for an uncapped reconnect backoff to reach 6-10 s', async () => {
    const port = Number(inference.address.split(':')[1]);
    // Down ~12 s in all (since the test above): grpc-js's default backoff (1 s, x1.6) would now wait
    // 6.5 s or more between attempts; the API's channel caps it at 2 s (inference/src/client/channel-options.ts).
    await new Promise((r) => setTimeout(r, 12_000));
    expect((await call<Readiness>(api.baseUrl, 'GET', '/readyz')).status).toBe(503);
    inference = await startInferenceService(tinyRepository(), { port });
    const back = Date.now();
    await waitFor(
      'inference on /readyz',
      async () => (await call(api.baseUrl, 'GET', '/readyz')).status === 200,
      15_000,
    );
    expect(Date.now() - back).toBeLessThan(5_000);
  }, 60_000);
});
