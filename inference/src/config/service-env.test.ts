import { readServiceEnv } from './service-env';

describe('the inference service environment', () => {
  it('runs on the CPU unless a device is asked for', () => {
    expect(readServiceEnv({}).INFERENCE_DEVICE).toBe('cpu');
    expect(readServiceEnv({ INFERENCE_DEVICE: 'cuda', INFERENCE_CUDA_LIBRARY_PATH: '/opt/gpu/lib' })).toMatchObject({
      INFERENCE_DEVICE: 'cuda',
      INFERENCE_CUDA_LIBRARY_PATH: '/opt/gpu/lib',
    });
  });

  it('names a device it does not know', () => {
    expect(() => readServiceEnv({ INFERENCE_DEVICE: 'CUDAExecutionProvider' })).toThrow(/INFERENCE_DEVICE/);
  });

  it('refuses CUDA with sessions on the front thread, where the reason CUDA failed could not be read', () => {
    expect(() => readServiceEnv({ INFERENCE_DEVICE: 'cuda', INFERENCE_EXECUTOR: 'inline' })).toThrow(
      /INFERENCE_EXECUTOR: INFERENCE_DEVICE=cuda or auto needs INFERENCE_EXECUTOR=process/,
    );
    expect(readServiceEnv({ INFERENCE_DEVICE: 'cpu', INFERENCE_EXECUTOR: 'inline' }).INFERENCE_EXECUTOR).toBe('inline');
  });
});
