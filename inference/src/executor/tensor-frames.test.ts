import { closeSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openSharedFile } from './shared-file';
import { readFrames, writeFrame, type Frame } from './tensor-frames';

const floats = (dims: number[], start: number) => ({
  dtype: 'float32' as const,
  dims,
  data: Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => start + i),
});

function roundTrip(write: (stream: PassThrough) => void, sharedFd?: number): Promise<Frame<{ id: number }>> {
  const stream = new PassThrough();
  const frame = new Promise<Frame<{ id: number }>>((resolve) => readFrames<{ id: number }>(stream, resolve, sharedFd));
  write(stream);
  return frame;
}

const streamed = (stream: PassThrough): (() => number) => {
  let bytes = 0;
  stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
  return () => bytes;
};

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

  describe('with a shared file', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'frames-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('leave the tensors in the file, so the stream carries only the header', async () => {
      const fd = openSharedFile(dir)!;
      let sent = () => 0;
      const frame = await roundTrip((s) => {
        sent = streamed(s);
        writeFrame(s, { id: 3 }, [{ x: floats([1, 3], 0) }, { x: floats([2, 3], 10) }], fd);
      }, fd);
      closeSync(fd);
      expect(frame.tensors.x.dims).toEqual([3, 3]);
      expect(Array.from(frame.tensors.x.data as Float32Array)).toEqual([0, 1, 2, 10, 11, 12, 13, 14, 15]);
      expect(sent()).toBeLessThan(200);
    });

    it('carry consecutive frames through the file, each with its own values', async () => {
      const fd = openSharedFile(dir)!;
      const stream = new PassThrough();
      const seen: number[][] = [];
      readFrames<{ id: number }>(stream, (f) => seen.push(Array.from(f.tensors.x.data as Float32Array)), fd);
      writeFrame(stream, { id: 1 }, { x: floats([1, 3], 0) }, fd);
      await new Promise((resolve) => setImmediate(resolve));
      writeFrame(stream, { id: 2 }, { x: floats([2, 3], 10), w: floats([1, 2], 50) }, fd);
      await new Promise((resolve) => setImmediate(resolve));
      closeSync(fd);
      expect(seen).toEqual([
        [0, 1, 2],
        [10, 11, 12, 13, 14, 15],
      ]);
    });

    it('is gone from its folder as soon as it is open, so nothing outlives the processes holding it', () => {
      const fd = openSharedFile(dir);
      expect(fd).toBeDefined();
      expect(readdirSync(dir)).toEqual([]);
      closeSync(fd!);
    });

    it('throw with nothing sent when the file cannot take the tensors, so the frame can go over the stream', () => {
      const path = join(dir, 'read-only');
      closeSync(openSync(path, 'w'));
      const readOnly = openSync(path, 'r');
      const stream = new PassThrough();
      const sent = streamed(stream);
      expect(() => writeFrame(stream, { id: 1 }, { x: floats([1, 3], 0) }, readOnly)).toThrow();
      closeSync(readOnly);
      expect(sent()).toBe(0);
    });
  });
});
