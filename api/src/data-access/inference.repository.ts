import { createInferenceClient, InferenceClient } from '../../../inference/src/client/inference-client';

/**
 * The API's one door to the inference service (gRPC, generated ts-proto types, a deadline on every
 * call). Today the API only asks whether it is serving; the capture flow's check calls go here too.
 */
export class InferenceRepository {
  private readonly client: InferenceClient;

  constructor(address: string) {
    this.client = createInferenceClient({ address });
  }

  /** Ready means SERVING on grpc.health.v1, which the service reports only after every model warmed up. */
  async checkReady(): Promise<void> {
    const status = await this.client.health('', 2_000);
    if (status !== 'SERVING') throw new Error(`inference health is ${status}`);
  }

  close(): void {
    this.client.close();
  }
}
