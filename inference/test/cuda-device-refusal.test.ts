/**
 * INFERENCE_DEVICE=cuda on a host where CUDA cannot open: the service must exit at start naming
 * the model, the missing library and the driver, and its readiness probe must never pass. Here
 * the CUDA runtime libraries are kept off the executors' path (an empty INFERENCE_CUDA_LIBRARY_PATH),
 * so the failure is a missing shared library whether or not `npm run gpu:install` ever ran on this
 * checkout: without it the provider pair itself is absent (onnxruntime names libonnxruntime_providers_shared.so,
 * the first it loads), with it libcublasLt is.
 * The same start with the libraries in place is `npm run test:gpu-route` (inference/README.md).
 */
import { TINY_MODEL, tempRoot, tinyRepository } from './fixtures/tiny-repository';
import { startWithDevice } from './support/device-start';

describe('the inference service asked for CUDA where CUDA cannot open', () => {
  it('exits within seconds naming the model, the missing library and the driver, never turning ready', async () => {
    const start = await startWithDevice(
      {
        MODEL_REPOSITORY: tinyRepository(),
        INFERENCE_DEVICE: 'cuda',
        INFERENCE_CUDA_LIBRARY_PATH: tempRoot(),
      },
      60_000,
    );
    expect(start.exitCode).toBe(1);
    expect(start.output).toMatch(
      new RegExp(
        `start-up failed: model "${TINY_MODEL}": cannot run on CUDA \\(INFERENCE_DEVICE=cuda\\): libonnxruntime_providers_(cuda|shared)\\.so did not load: (\\S*/)?lib[\\w.]+\\.so[.\\d]*: cannot open shared object file`,
      ),
    );
    expect(start.output).toMatch(/NVIDIA driver: (none|\d+\.\d+)/);
    expect(start.output).not.toMatch(/ready on provider cpu/);
    expect(start.healthSeen).not.toContain('SERVING');
    expect(start.elapsedMs).toBeLessThan(30_000);
  });

  it('falls back to the CPU only under INFERENCE_DEVICE=auto, with a warning that says why', async () => {
    const start = await startWithDevice(
      {
        MODEL_REPOSITORY: tinyRepository(),
        INFERENCE_DEVICE: 'auto',
        INFERENCE_CUDA_LIBRARY_PATH: tempRoot(),
      },
      30_000,
      true,
    );
    expect(start.output).toMatch(
      new RegExp(
        `WARNING model ${TINY_MODEL}: cuda did not open \\(libonnxruntime_providers_(cuda|shared)\\.so did not load: (\\S*/)?lib[\\w.]+\\.so[.\\d]*: cannot open shared object file.*\\); running on cpu because INFERENCE_DEVICE=auto`,
      ),
    );
    expect(start.output).toMatch(/ready on provider cpu, device cpu, batch profile cpu \(max 8/);
    expect(start.healthSeen).toContain('SERVING');
  });
});
