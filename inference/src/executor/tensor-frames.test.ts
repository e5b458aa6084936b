import { PassThrough } from 'node:stream';
import { readFrames, writeFrame, type Frame } from './tensor-frames';

const floats = (dims: number[], start: number) => ({
  dtype: 'float32' as const,
  dims,
  data: Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => start + i),
});

function roundTrip(write: (stream: PassThrough) => void): Promise<Frame<{ id: number }>> {
  const stream = new PassThrough();
  const frame = new Promise<Frame<{ id: number }>>((resolve) => readFrames<{ id: number }>(stream, resolve));
  write(stream);
  return frame;
}

describe('tensor frames', () => {
  it('carry a header and tensors through unchanged', async () => {
    const frame = await roundTrip((s) =>
      writeFrame(
        s,
        { id: 7 },
        { x: floats([1, 3], 0), n: { dtype: 'int64', dims: [1], data: BigInt64Array.from([5n]) } },
      ),
    );
    expect(frame.header).toEqual({ id: 7 });
    expect(Array.from(frame.tensors.x.data as Float32Array)).toEqual([0, 1, 2]);
    expect(frame.tensors.n.data[0]).toBe(5n);
  });

  it('stack the requests of a batch along the batch dimension on the wire', async () => {
    const frame = await roundTrip((s) =>
      writeFrame(s, { id: 1 }, [{ x: floats([1, 3], 0) }, { x: floats([2, 3], 10) }]),
    );
    expect(frame.tensors.x.dims).toEqual([3, 3]);
    expect(Array.from(frame.tensors.x.data as Float32Array)).toEqual([0, 1, 2, 10, 11, 12, 13, 14, 15]);
  });
});
