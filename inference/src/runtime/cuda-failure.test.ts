import { cudaRefusalMessage, ortFailureReason } from './cuda-failure';
import { parseProcDriverVersion } from './nvidia-driver';

// Lines as onnxruntime-node 1.30.0 printed them here (colour codes included).
const missingCublas =
  '\x1b[1;31m2026-11-25 19:01:12.806288959 [E:onnxruntime:onnxruntime-node, provider_bridge_ort.cc:2146 Create] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1988 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library /app/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime_providers_cuda.so with error: libcublasLt.so.13: cannot open shared object file: No such file or directory';
const missingDriver = missingCublas.replace('libcublasLt.so.13', 'libcuda.so.1');
// onnxruntime's CUDA_CALL format (core/providers/cuda/cuda_call.cc) on a host with a driver and no GPU.
const noDevice =
  '2026-11-25 10:00:00.000 [E:onnxruntime:onnxruntime-node, cuda_call.cc:123 CudaCall] CUDA failure 100: no CUDA-capable device is detected ; GPU=0 ; hostname=node-1 ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_execution_provider.cc ; line=282 ; expr=cudaSetDevice(info_.device_id); ';

describe('the reason onnxruntime printed for a failed CUDA open', () => {
  it('names the library that did not load and the one it was missing', () => {
    expect(ortFailureReason(['unrelated', missingCublas, '\x1b[m'])).toBe(
      'libonnxruntime_providers_cuda.so did not load: libcublasLt.so.13: cannot open shared object file: No such file or directory',
    );
  });

  it('keeps the CUDA error and the call that raised it', () => {
    expect(ortFailureReason([noDevice])).toBe(
      'CUDA failure 100: no CUDA-capable device is detected (cudaSetDevice(info_.device_id))',
    );
  });

  it('takes the newest failure and finds none in unrelated output', () => {
    expect(ortFailureReason([missingCublas, missingDriver])).toMatch(/libcuda\.so\.1/);
    expect(ortFailureReason(['[inference] ready', ''])).toBeUndefined();
  });
});

describe('the start-up refusal', () => {
  it('says what to install when a runtime library is missing', () => {
    const message = cudaRefusalMessage('Failed to load shared library', ortFailureReason([missingCublas]), 'none');
    expect(message).toMatch(
      /^cannot run on CUDA \(INFERENCE_DEVICE=cuda\): libonnxruntime_providers_cuda\.so did not load: libcublasLt\.so\.13: .*; NVIDIA driver: none \(install the provider with `npm run gpu:install`/,
    );
  });

  it('points at the driver when libcuda.so.1 is missing, and at the pod when no GPU is visible', () => {
    expect(cudaRefusalMessage('x', ortFailureReason([missingDriver]), 'none')).toMatch(
      /libcuda\.so\.1 is the NVIDIA driver's own library.*R580/,
    );
    expect(cudaRefusalMessage('x', ortFailureReason([noDevice]), '580.65.06')).toMatch(
      /CUDA failure 100.*NVIDIA driver: 580\.65\.06 \(no GPU is visible.*nvidia\.com\/gpu: 1/,
    );
  });

  it('falls back to the JavaScript error when stderr said nothing', () => {
    expect(cudaRefusalMessage('Failed to load shared library', undefined, 'none')).toBe(
      'cannot run on CUDA (INFERENCE_DEVICE=cuda): Failed to load shared library; NVIDIA driver: none',
    );
  });
});

describe('the driver version from /proc/driver/nvidia/version', () => {
  it('reads both the proprietary and the open kernel module lines', () => {
    expect(
      parseProcDriverVersion(
        'NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\nGCC version: gcc 12',
      ),
    ).toBe('535.104.05');
    expect(
      parseProcDriverVersion(
        'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build  (dvs-builder@U16)  Sun Jul 27 2025',
      ),
    ).toBe('580.65.06');
    expect(parseProcDriverVersion('')).toBeUndefined();
  });
});
