/**
 * Shared by the face checks' tests: the project's generated face sets and an in-process runner
 * over the real models in models/ (materialised by `npm run models:materialize`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { faceTestdataDir, generateFaceTestdata, livenessTestdataDir } from '../../../../models/testdata/faces/generate-face-testdata';
import { createInProcessModelRunner, type InProcessModelRunner } from '../../runtime/in-process-model-runner';
import type { ModelConfig, ModelRunner } from '../../runtime/model-runner';

export { faceTestdataDir, livenessTestdataDir };

export async function faceTestRunner(models: string[]): Promise<InProcessModelRunner> {
  await generateFaceTestdata();
  return createInProcessModelRunner({ repository: path.join(__dirname, '../../../../models'), models });
}

export async function faceImage(name: string, dir = faceTestdataDir): Promise<Uint8Array> {
  return new Uint8Array(await readFile(path.join(dir, name)));
}

export async function jsonLines<T>(file: string): Promise<T[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as T);
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
