/**
 * Why a model did not open on CUDA. onnxruntime-node's JavaScript error only says
 * "OrtSessionOptionsAppendExecutionProvider_Cuda: Failed to load shared library"; the reason (the
 * missing library, or the CUDA error) is printed to the executor's stderr, which the front reads.
 */
import { basename } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** The newest onnxruntime failure in the captured stderr lines, worded for an operator. */
export function ortFailureReason(stderrLines: readonly string[]): string | undefined {
  for (let i = stderrLines.length - 1; i >= 0; i -= 1) {
    const line = stripVTControlCharacters(stderrLines[i]);
    const library = /Failed to load library (\S+) with error: (.+)$/.exec(line);
    if (library) return `${basename(library[1])} did not load: ${library[2].trim()}`;
    const cuda =
      /(CUDA failure \d+: [^;]*?)\s*;.*?expr=([^;]*?);?\s*$/.exec(line) ?? /(CUDA failure \d+: [^;]*)/.exec(line);
    if (cuda) return cuda[2] ? `${cuda[1].trim()} (${cuda[2].trim()})` : cuda[1].trim();
    const other = /\[E:onnxruntime[^\]]*\]\s*(.+)$/.exec(line);
    if (other) return other[1].trim();
  }
  return undefined;
}

function hint(reason: string): string {
  if (/libcuda\.so/.test(reason))
    return "libcuda.so.1 is the NVIDIA driver's own library: this host has no driver (R580 or newer is needed), or the container does not mount it";
  if (/CUDA failure 100\b/.test(reason))
    return 'no GPU is visible to this process: on Kubernetes the pod must request nvidia.com/gpu: 1';
  if (/CUDA failure 35\b|insufficient/i.test(reason))
    return 'the NVIDIA driver is older than CUDA 13 needs (R580 or newer)';
  if (/cannot open shared object file|No such file/.test(reason))
    return 'install the provider with `npm run gpu:install` and start with the INFERENCE_CUDA_LIBRARY_PATH it writes to .state/gpu/env';
  return '';
}

/** The start-up refusal: the model (added by ModelRepositoryError), the reason, the driver found. */
export function cudaRefusalMessage(jsMessage: string, stderrReason: string | undefined, driverVersion: string): string {
  const reason = stderrReason ?? jsMessage;
  const advice = hint(reason);
  return `cannot run on CUDA (INFERENCE_DEVICE=cuda): ${reason}; NVIDIA driver: ${driverVersion}${advice ? ` (${advice})` : ''}`;
}
