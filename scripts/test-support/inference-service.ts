/**
 * The real inference service in the calling process, on a free port (or the one asked for, so a
 * test can stop and restart it at the same address), and a client for it; stop() frees both.
 * For the service in a process of its own, as production runs it, see inference-process.ts.
 */
import { createInferenceClient, type InferenceClient } from '../../inference/src/client/inference-client';
import {
  startInferenceServer,
  type InferenceServerOptions,
  type RunningInferenceServer,
} from '../../inference/src/grpc/inference-server';

export interface InferenceService {
  server: RunningInferenceServer;
  client: InferenceClient;
  address: string;
  stop(): Promise<void>;
}

export async function startInferenceService(
  repository: string,
  options: Partial<InferenceServerOptions> = {},
): Promise<InferenceService> {
  const server = await startInferenceServer({
    repository,
    port: 0,
    host: '127.0.0.1',
    metricsPort: 0,
    ...options,
  });
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
