/** Starts the real inference service on a free port and a client for it; stop() frees both. */
import { createInferenceClient, type InferenceClient } from '../../src/client/inference-client';
import { startInferenceServer, type InferenceServerOptions, type RunningInferenceServer } from '../../src/grpc/inference-server';

export interface TestService {
  server: RunningInferenceServer;
  client: InferenceClient;
  address: string;
  stop(): Promise<void>;
}

export async function startTestService(repository: string, options: Partial<InferenceServerOptions> = {}): Promise<TestService> {
  const server = await startInferenceServer({ repository, port: 0, host: '127.0.0.1', metricsPort: 0, ...options });
  const address = `127.0.0.1:${server.port}`;
  const client = createInferenceClient({ address });
  return {
    server,
    client,
    address,
    async stop() {
      client.close();
      await server.stop();
    },
  };
}
