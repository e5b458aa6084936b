/**
 * Start-up validation of the model repository, through the real service: a bad config, checksum
 * or graph mismatch stops start-up with a message naming the model and the problem.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { TINY_MODEL, tempRoot, tinyRepository, writeTinyModel } from './fixtures/tiny-repository';
import { startInferenceService } from '../../scripts/test-support/inference-service';

async function startupError(repository: string): Promise<string> {
  try {
    const service = await startInferenceService(repository);
    await service.stop();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the service started although the repository is invalid');
}

describe('model repository validation at start-up', () => {
  it('starts, warms the model and reports SERVING when the repository is valid', async () => {
    const service = await startInferenceService(tinyRepository());
    try {
      await expect(service.client.health()).resolves.toBe('SERVING');
      await expect(service.client.health('bioverify.inference.v1.ModelService')).resolves.toBe('SERVING');
      await expect(service.client.modelReady(TINY_MODEL)).resolves.toBe(true);
    } finally {
      await service.stop();
    }
  });

  it('refuses a model file whose sha256 differs from config.json', async () => {
    const message = await startupError(tinyRepository({ replaceModelBytes: new Uint8Array([1, 2, 3]) }));
    expect(message).toMatch(/model "tiny-affine": checksum mismatch for model\.onnx/);
  });

  it('refuses a config that names an input the graph does not have', async () => {
    const message = await startupError(tinyRepository({ shape: { inputName: 'pixels' } }));
    expect(message).toContain('model "tiny-affine"');
    expect(message).toContain('input "x" is not in the ONNX graph');
    expect(message).toContain('graph input "pixels" is not declared');
  });

  it('refuses dims that disagree with the graph', async () => {
    const message = await startupError(
      tinyRepository({ editConfig: (c) => ({ ...c, inputs: [{ ...c.inputs[0], dims: [5] }] }) }),
    );
    expect(message).toMatch(/model "tiny-affine".*input "x" dim 1 is 4 in the graph, config says 5/);
  });

  it('refuses a dtype that disagrees with the graph', async () => {
    const message = await startupError(
      tinyRepository({
        editConfig: (c) => ({ ...c, outputs: [{ ...c.outputs[0], dtype: 'int32' }, c.outputs[1]] }),
      }),
    );
    expect(message).toContain('output "y" is float32 in the graph, config says int32');
  });

  it('refuses batching on a graph whose batch dim is fixed', async () => {
    const message = await startupError(tinyRepository({ shape: { fixedBatch: 1 } }));
    expect(message).toContain('fixed batch dim 1 in the graph but max_batch_size > 0 needs a free one');
  });

  it('names every missing or malformed config field', async () => {
    const message = await startupError(
      tinyRepository({
        editConfig: (c) => {
          const edited: Partial<typeof c> = {
            ...c,
            batching: { ...c.batching, cpu: { ...c.batching.cpu, max_batch_size: -1 } },
          };
          delete edited.licence;
          return edited;
        },
      }),
    );
    expect(message).toMatch(/model "tiny-affine".*licence:.*batching\.cpu\.max_batch_size:/);
  });

  it('refuses a file that is not an ONNX model even when its checksum matches', async () => {
    const root = tinyRepository();
    const junk = Buffer.from('not an onnx graph');
    const sha256 = createHash('sha256').update(junk).digest('hex');
    writeTinyModel(root, { replaceModelBytes: junk, editConfig: (c) => ({ ...c, sha256 }) });
    expect(await startupError(root)).toMatch(/model "tiny-affine": could not open the model on cpu: /);
  });

  it('says how to get a missing model file', async () => {
    const root = tempRoot();
    mkdirSync(join(root, TINY_MODEL, '1'), { recursive: true });
    writeTinyModel(root);
    rmSync(join(root, TINY_MODEL, '1', 'model.onnx'));
    expect(await startupError(root)).toMatch(/model\.onnx is missing.*npm run models:materialize/);
  });

  it('serves the highest version folder, or the one version-policy.json pins', async () => {
    const root = tinyRepository();
    writeTinyModel(root, { version: 2 });
    let service = await startInferenceService(root);
    try {
      expect((await service.client.modelMetadata(TINY_MODEL)).versions).toEqual(['2']);
      await expect(service.client.modelMetadata(TINY_MODEL, '1')).rejects.toMatchObject({
        code: status.NOT_FOUND,
      });
    } finally {
      await service.stop();
    }
    writeFileSync(join(root, TINY_MODEL, 'version-policy.json'), JSON.stringify({ serve: 1 }));
    service = await startInferenceService(root);
    try {
      expect((await service.client.modelMetadata(TINY_MODEL)).versions).toEqual(['1']);
    } finally {
      await service.stop();
    }
  });

  it('refuses a version policy that pins a missing version', async () => {
    const root = tinyRepository();
    writeFileSync(join(root, TINY_MODEL, 'version-policy.json'), JSON.stringify({ serve: 7 }));
    expect(await startupError(root)).toContain('version-policy.json serves version 7, but there is no folder 7/');
  });

  it('refuses a config whose name or version disagrees with its folder', async () => {
    const message = await startupError(tinyRepository({ editConfig: (c) => ({ ...c, name: 'other-model' }) }));
    expect(message).toContain('config.json says name "other-model" but the folder is "tiny-affine"');
  });
});
