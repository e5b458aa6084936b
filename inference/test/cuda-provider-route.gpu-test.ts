/**
 * The GPU route with the CUDA provider really installed (`npm run test:gpu-route`, kept out of
 * `npm test`: the first run downloads 1.5 GB of wheels and extracts 2.4 GB; later runs reuse the
 * verified cache in .state/gpu). The test installs it itself, so a missing cache is never a skip.
 *
 * On a host without a GPU, INFERENCE_DEVICE=cuda must still exit, and what it names shows how far
 * loading got: only the driver's own libcuda.so.1 (no driver) or "CUDA failure 100: no
 * CUDA-capable device" (driver, no GPU) may be missing; every library from the wheels linked. On a
 * host with a GPU, the same start must turn ready with every model on cuda:0.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TINY_MODEL, tinyRepository } from './fixtures/tiny-repository';
import { startWithDevice } from './support/device-start';

const root = join(__dirname, '../..');
const WHEEL_LIBRARIES =
  /lib(cublas|cublasLt|cudart|curand|cufft|cudnn\w*|nvrtc|nvJitLink|onnxruntime_providers_\w+)\.so/;
let cudaLibraryPath = '';

beforeAll(() => {
  execFileSync('bash', [join(root, 'scripts/gpu/install-cuda-provider.sh')], {
    cwd: root,
    stdio: 'inherit',
    timeout: 15 * 60_000,
  });
  const env = readFileSync(join(root, '.state/gpu/env'), 'utf8');
  cudaLibraryPath = /^INFERENCE_CUDA_LIBRARY_PATH=(.+)$/m.exec(env)![1]!;
}, 16 * 60_000);

const hasGpu = existsSync('/dev/nvidia0');

describe('INFERENCE_DEVICE=cuda with the provider installed from the pinned wheels', () => {
  (hasGpu ? it.skip : it)('exits on a host without a GPU, having linked every library the wheels provide', async () => {
    const start = await startWithDevice(
      {
        MODEL_REPOSITORY: tinyRepository(),
        INFERENCE_DEVICE: 'cuda',
        INFERENCE_CUDA_LIBRARY_PATH: cudaLibraryPath,
      },
      60_000,
    );
    expect(start.exitCode).toBe(1);
    const refusal = /start-up failed: (.*)/.exec(start.output)?.[1] ?? '';
    expect(refusal).toMatch(new RegExp(`^model "${TINY_MODEL}": cannot run on CUDA \\(INFERENCE_DEVICE=cuda\\): `));
    expect(refusal).toMatch(
      /did not load: libcuda\.so\.1: cannot open shared object file|CUDA failure 100: no CUDA-capable device is detected/,
    );
    expect(refusal.replace(/^.*?did not load: /, '')).not.toMatch(WHEEL_LIBRARIES);
    expect(start.healthSeen).not.toContain('SERVING');
    expect(start.elapsedMs).toBeLessThan(30_000);
  });

  (hasGpu ? it : it.skip)('turns ready on cuda:0 on a host with a GPU', async () => {
    const start = await startWithDevice(
      {
        MODEL_REPOSITORY: tinyRepository(),
        INFERENCE_DEVICE: 'cuda',
        INFERENCE_CUDA_LIBRARY_PATH: cudaLibraryPath,
      },
      120_000,
      true,
    );
    expect(start.healthSeen).toContain('SERVING');
    expect(start.output).toMatch(
      new RegExp(`model ${TINY_MODEL} v1: ready on provider cuda, device cuda:0, batch profile cuda \\(max 64`),
    );
  });

  it('leaves the CPU route as it was: INFERENCE_DEVICE=cpu serves with the provider files beside the binding', async () => {
    const start = await startWithDevice(
      {
        MODEL_REPOSITORY: tinyRepository(),
        INFERENCE_DEVICE: 'cpu',
        INFERENCE_CUDA_LIBRARY_PATH: cudaLibraryPath,
      },
      60_000,
      true,
    );
    expect(start.healthSeen).toContain('SERVING');
    expect(start.output).toMatch(/ready on provider cpu, device cpu/);
  });
});
