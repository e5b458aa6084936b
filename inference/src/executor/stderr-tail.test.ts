import { StderrTail } from './stderr-tail';

const failure =
  '[E:onnxruntime:x, provider_bridge_ort.cc:1 Get] Failed to load library /x/libonnxruntime_providers_cuda.so with error: libcudart.so.13: cannot open shared object file';

describe('the executor stderr tail', () => {
  it('finds a failure written in pieces, after the mark only', async () => {
    const tail = new StderrTail();
    tail.push(`${failure.replace('libcudart', 'libold')}\n`);
    const mark = tail.mark;
    tail.push(failure.slice(0, 40));
    tail.push(`${failure.slice(40)}\nnext line\n`);
    expect(await tail.reason(mark, 0)).toMatch(/libcudart\.so\.13/);
  });

  it('waits for a failure line that arrives after the executor replied', async () => {
    const tail = new StderrTail();
    const mark = tail.mark;
    setTimeout(() => tail.push(`${failure}\n`), 60);
    expect(await tail.reason(mark, 1000)).toMatch(/libcudart\.so\.13/);
  });

  it('gives up after the wait when stderr stays silent', async () => {
    const tail = new StderrTail();
    const started = Date.now();
    expect(await tail.reason(tail.mark, 100)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });
});
