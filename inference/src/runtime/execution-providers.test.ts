import type * as ort from 'onnxruntime-node';
import {
  CudaUnavailableError,
  openSessionOnDevice,
  type ProviderName,
  type SessionOpener,
} from './execution-providers';

const session = (provider: ProviderName) => ({ provider }) as unknown as ort.InferenceSession;

/** An opener that succeeds only on the providers given, recording every attempt. */
function stubOpener(working: ProviderName[]): SessionOpener & { tried: ProviderName[] } {
  const tried: ProviderName[] = [];
  const open = (_path: string, provider: ProviderName) => {
    tried.push(provider);
    if (!working.includes(provider))
      return Promise.reject(
        new Error('OrtSessionOptionsAppendExecutionProvider_Cuda: Failed to load shared library\nmore'),
      );
    return Promise.resolve(session(provider));
  };
  return Object.assign(open, { tried });
}

describe('opening a session on the requested device', () => {
  it('opens on the CPU by default and never tries CUDA', async () => {
    const open = stubOpener(['cpu', 'cuda']);
    const opened = await openSessionOnDevice('m.onnx', {}, open);
    expect(opened).toMatchObject({ provider: 'cpu', skipped: [] });
    expect(open.tried).toEqual(['cpu']);
  });

  it('opens on CUDA when asked and CUDA works', async () => {
    const open = stubOpener(['cpu', 'cuda']);
    expect(await openSessionOnDevice('m.onnx', { device: 'cuda' }, open)).toMatchObject({
      provider: 'cuda',
      skipped: [],
    });
  });

  it('refuses instead of falling back to the CPU when CUDA was asked for and does not open', async () => {
    const open = stubOpener(['cpu']);
    const refusal = openSessionOnDevice('m.onnx', { device: 'cuda' }, open);
    await expect(refusal).rejects.toBeInstanceOf(CudaUnavailableError);
    await expect(refusal).rejects.toMatchObject({
      reason: 'OrtSessionOptionsAppendExecutionProvider_Cuda: Failed to load shared library',
    });
    expect(open.tried).not.toContain('cpu');
  });

  it('falls back to the CPU under auto, keeping why CUDA did not open', async () => {
    const open = stubOpener(['cpu']);
    const opened = await openSessionOnDevice('m.onnx', { device: 'auto' }, open);
    expect(opened.provider).toBe('cpu');
    expect(opened.skipped).toEqual([
      {
        provider: 'cuda',
        reason: 'OrtSessionOptionsAppendExecutionProvider_Cuda: Failed to load shared library',
      },
    ]);
    expect(open.tried).toEqual(['cuda', 'cpu']);
  });

  it('stays on CUDA under auto when CUDA opens', async () => {
    const open = stubOpener(['cpu', 'cuda']);
    expect(await openSessionOnDevice('m.onnx', { device: 'auto' }, open)).toMatchObject({
      provider: 'cuda',
      skipped: [],
    });
    expect(open.tried).toEqual(['cuda']);
  });
});
