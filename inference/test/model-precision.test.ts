/**
 * The per-model `precision` option: fp16 is served on CUDA only. A CPU service refuses such a
 * model at start, naming it; on CUDA the fp16 file opens; under auto a CPU fallback opens the fp32
 * file and says so in the warning the start log prints.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { parseModelConfig } from '../src/repository/model-config-schema';
import { loadModelEntry } from '../src/repository/load-model-repository';
import type { ProviderName, SessionOpener } from '../src/runtime/execution-providers';
import { openModel } from '../src/runtime/open-model';
import { TINY_MODEL, tinyConfig, tinyRepository } from './fixtures/tiny-repository';
import { startInferenceService } from '../../scripts/test-support/inference-service';

/** A tiny repository whose model declares fp16, with an fp16 file copied from the fp32 one. */
function fp16Repository(fp16Sha?: (real: string) => string): string {
  const root = tinyRepository({
    editConfig: (c) => ({
      ...c,
      precision: 'fp16',
      fp16: { file: 'model.fp16.onnx', sha256: fp16Sha ? fp16Sha(c.sha256) : c.sha256 },
    }),
  });
  copyFileSync(join(root, TINY_MODEL, '1', 'model.onnx'), join(root, TINY_MODEL, '1', 'model.fp16.onnx'));
  return root;
}

/** Opens real CPU sessions, pretending CUDA works (or not), and records which file each provider was given. */
function recordingOpener(cudaWorks: boolean): SessionOpener & { opened: Array<[ProviderName, string]> } {
  const opened: Array<[ProviderName, string]> = [];
  const open: SessionOpener = async (modelPath, provider) => {
    opened.push([provider, modelPath.split('/').at(-1)!]);
    if (provider === 'cuda' && !cudaWorks) throw new Error('CUDA failure 100: no CUDA-capable device is detected');
    return ort.InferenceSession.create(modelPath);
  };
  return Object.assign(open, { opened });
}

describe('the precision a model is declared with', () => {
  const base = tinyConfig('a'.repeat(64));

  it('is fp32 unless the config says fp16', () => {
    expect(parseModelConfig(base).precision).toBeUndefined();
    expect(parseModelConfig({ ...base, precision: 'fp32' }).precision).toBe('fp32');
  });

  it('refuses a precision other than fp32 or fp16', () => {
    expect(() => parseModelConfig({ ...base, precision: 'int8' })).toThrow(/precision: Invalid (enum value|option)/);
  });

  it('refuses fp16 without the fp16 file and its sha256', () => {
    expect(() => parseModelConfig({ ...base, precision: 'fp16' })).toThrow(
      /fp16: precision "fp16" needs the fp16 file/,
    );
    expect(() =>
      parseModelConfig({ ...base, precision: 'fp16', fp16: { file: 'model.fp16.onnx', sha256: 'xyz' } }),
    ).toThrow(/fp16\.sha256: lowercase hex sha256/);
    expect(() =>
      parseModelConfig({ ...base, precision: 'fp16', fp16: { file: 'model.onnx', sha256: 'b'.repeat(64) } }),
    ).toThrow(/fp16\.file: the fp16 file must differ/);
  });

  it('is refused on a cpu service, naming the model and what to change', async () => {
    await expect(loadModelEntry(fp16Repository(), TINY_MODEL, 'cpu')).rejects.toThrow(
      /model "tiny-affine": config\.json declares "precision": "fp16", which is served on CUDA only, but this service runs on cpu \(INFERENCE_DEVICE=cpu\)/,
    );
  });

  it('has its fp16 file checked against the pinned sha256 before a CUDA service opens it', async () => {
    await expect(
      loadModelEntry(
        fp16Repository(() => 'c'.repeat(64)),
        TINY_MODEL,
        'cuda',
      ),
    ).rejects.toThrow(/checksum mismatch for model\.fp16\.onnx/);
    const entry = await loadModelEntry(fp16Repository(), TINY_MODEL, 'cuda');
    expect(entry.fp16Path).toMatch(/model\.fp16\.onnx$/);
  });

  it('opens the fp16 file when the model opens on CUDA', async () => {
    const entry = await loadModelEntry(fp16Repository(), TINY_MODEL, 'cuda');
    const open = recordingOpener(true);
    const model = await openModel(entry, { device: 'cuda' }, open);
    await model.close();
    expect(model.provider).toBe('cuda');
    expect(open.opened).toEqual([['cuda', 'model.fp16.onnx']]);
  });

  it('falls back to the fp32 file on the CPU under auto, and the warning says so', async () => {
    const entry = await loadModelEntry(fp16Repository(), TINY_MODEL, 'cuda');
    const open = recordingOpener(false);
    const model = await openModel(entry, { device: 'auto' }, open);
    await model.close();
    expect(open.opened).toEqual([
      ['cuda', 'model.fp16.onnx'],
      ['cpu', 'model.onnx'],
    ]);
    expect(model.skippedProviders).toEqual([
      {
        provider: 'cuda',
        reason:
          'CUDA failure 100: no CUDA-capable device is detected; precision fp16 is CUDA only, so the fp32 file model.onnx serves on cpu',
      },
    ]);
  });

  it('leaves an fp32 model opening its one file on every device', async () => {
    const entry = await loadModelEntry(tinyRepository(), TINY_MODEL, 'cuda');
    const open = recordingOpener(true);
    const model = await openModel(entry, { device: 'cuda' }, open);
    await model.close();
    expect(open.opened).toEqual([['cuda', 'model.onnx']]);
  });

  it('stops the inference service at start on cpu (the default device), naming the model', async () => {
    let message = '';
    try {
      const service = await startInferenceService(fp16Repository());
      await service.stop();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/model "tiny-affine".*"precision": "fp16", which is served on CUDA only/);
  });
});
