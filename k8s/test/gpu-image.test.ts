/**
 * The GPU image's CUDA route, checked without Docker: its Dockerfile builds from a slim base with
 * the recipe (scripts/gpu/install-cuda-provider.sh), and the file set that recipe places (the
 * libraries pinned in scripts/gpu/cuda-libraries.sha256, each checked after extraction) holds the
 * onnxruntime provider pair and the CUDA 13 runtime, no CUDA 12 one. `npm run test:gpu-route`
 * runs the recipe itself.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readDockerfile } from './support/dockerfile';
import { arrayContaining, stringMatching } from '../../scripts/test-support/typed-matchers';

const REPO = path.resolve(__dirname, '../..');
const gpu = readDockerfile(path.join(REPO, 'k8s/images/inference-gpu.Dockerfile'));
const pinnedLibraries = readFileSync(path.join(REPO, 'scripts/gpu/cuda-libraries.sha256'), 'utf8')
  .split('\n')
  .filter((line) => /^[0-9a-f]{64} {2}\S+$/.test(line))
  .map((line) => line.slice(66));
const lock = readFileSync(path.join(REPO, 'scripts/gpu/cuda-provider.lock'), 'utf8');
const pinnedWheels = Object.fromEntries(
  [...lock.matchAll(/^([a-z0-9-]+)==(\S+) --hash=sha256:[0-9a-f]{64}$/gm)].map(([, name, version]) => [name, version]),
);

describe('the GPU inference image', () => {
  it('starts from a slim Node base, not a CUDA base image, and never lets onnxruntime-node fetch a provider', () => {
    for (const stage of gpu.stages) {
      expect(stage.base).toBe('node:20-bookworm-slim');
      expect(stage.env.ONNXRUNTIME_NODE_INSTALL).toBe('skip');
    }
  });

  it('installs the CUDA provider with the recipe in its final stage and points the service at the libraries', () => {
    const recipe = gpu.final.runs.find((run) => run.includes('scripts/gpu/install-cuda-provider.sh'));
    expect(recipe).toBeDefined();
    expect(gpu.final.copies).toContainEqual({
      from: undefined,
      sources: ['scripts/gpu'],
      destination: './scripts/gpu',
    });
    const cache = /GPU_CACHE_DIR=(\S+)/.exec(recipe!)?.[1];
    expect(gpu.final.env.INFERENCE_CUDA_LIBRARY_PATH).toBe(`${cache}/lib`);
    expect(recipe).toContain(`rm -rf ${cache}/wheels`);
  });

  it('holds the onnxruntime provider pair and the CUDA 13 runtime libraries, and no CUDA 12 runtime', () => {
    expect(pinnedLibraries).toEqual(
      arrayContaining([
        'libonnxruntime_providers_cuda.so',
        'libonnxruntime_providers_shared.so',
        'libcudart.so.13',
        'libcublas.so.13',
        'libcublasLt.so.13',
        'libnvrtc.so.13',
        'libnvJitLink.so.13',
        'libcurand.so.10',
        'libcufft.so.12',
        'libcudnn.so.9',
      ]),
    );
    // cuFFT 12 and cuRAND 10 are the CUDA 13 toolkit's own majors; the runtime, cuBLAS, NVRTC and nvJitLink carry CUDA's.
    expect(
      pinnedLibraries.filter(
        (name) =>
          /^lib(cudart|cublas|cublasLt|nvrtc|nvrtc-builtins|nvJitLink)\.so\.(\d+)/.exec(name)?.[2] !== '13' &&
          /^lib(cudart|cublas|nvrtc|nvJitLink)/.test(name),
      ),
    ).toEqual([]);
    expect(Object.keys(pinnedWheels).filter((name) => /cu12/.test(name))).toEqual([]);
  });

  it('pins the onnxruntime-gpu build that matches the onnxruntime-node in package-lock.json', () => {
    const packageLock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    expect(pinnedWheels['onnxruntime-gpu']).toBe(packageLock.packages['node_modules/onnxruntime-node'].version);
    expect(pinnedWheels).toMatchObject({
      'nvidia-cuda-runtime': stringMatching(/^13\./),
      'nvidia-cudnn-cu13': stringMatching(/^9\./),
    });
  });
});

describe('the project text', () => {
  it('no longer points at the provider download the GPU route used to need', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file && file !== 'k8s/test/gpu-image.test.ts' && file !== 'package-lock.json');
    const hits = files.filter((file) =>
      /nuget|cuda12|ONNXRUNTIME_NODE_INSTALL=(?!skip)/i.test(readFileSync(path.join(REPO, file), 'latin1')),
    );
    expect(hits).toEqual([]);
  });
});
