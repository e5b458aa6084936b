/**
 * Shared by the face checks' tests: the project's generated face sets and a runner whose models
 * run in the real inference service (gRPC ModelInfer, dynamic batching, executor process) over the
 * real models in models/ (materialised by `npm run models:materialize`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  faceTestdataDir,
  generateFaceTestdata,
  livenessTestdataDir,
} from '../../tools/testdata/faces/generate-face-testdata';
import { createInferenceClient } from '../../src/client/inference-client';
import { createRemoteModelRunner } from '../../src/runtime/remote-model-runner';
import { startInferenceServer } from '../../src/grpc/inference-server';
import type { ModelConfig, ModelRunner } from '../../src/runtime/model-runner';

export { faceTestdataDir, livenessTestdataDir };

export interface ServiceTestRunner extends ModelRunner {
  /** Stops the client and the service it started. */
  close(): Promise<void>;
}

/** Starts the real inference service with `models` on a free port and a runner that calls it. */
export async function faceTestRunner(models: string[]): Promise<ServiceTestRunner> {
  await generateFaceTestdata();
  const server = await startInferenceServer({
    repository: path.join(__dirname, '../../../models'),
    port: 0,
    host: '127.0.0.1',
    metricsPort: null,
    models,
  });
  const client = createInferenceClient({ address: `127.0.0.1:${server.port}` });
  const runner = await createRemoteModelRunner(client);
  return {
    infer: (name, inputs, options) => runner.infer(name, inputs, options),
    config: (name) => runner.config(name),
    async close() {
      client.close();
      await server.stop();
    },
  };
}

export async function faceImage(name: string, dir = faceTestdataDir): Promise<Uint8Array> {
  return new Uint8Array(await readFile(path.join(dir, name)));
}

export async function jsonLines<T>(file: string): Promise<T[]> {
  return (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);
}

/** The same runner with one model's thresholds replaced, to drive a check across its line. */
export function withThresholds(runner: ModelRunner, model: string, thresholds: Record<string, number>): ModelRunner {
  return {
    infer: (name, inputs, options) => runner.infer(name, inputs, options),
    config: (name): ModelConfig => {
      const config = runner.config(name);
      return name === model ? { ...config, thresholds: { ...config.thresholds, ...thresholds } } : config;
    },
  };
}
