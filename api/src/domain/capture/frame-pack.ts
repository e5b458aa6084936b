/** Packs liveness frames into one buffer (count, then each length and its bytes, big-endian u32). */
export function packFrames(frames: Buffer[]): Buffer {
  const header = Buffer.alloc(4 + 4 * frames.length);
  header.writeUInt32BE(frames.length, 0);
  frames.forEach((frame, i) => header.writeUInt32BE(frame.length, 4 + 4 * i));
  return Buffer.concat([header, ...frames]);
}

export function unpackFrames(packed: Buffer): Buffer[] {
  const count = packed.readUInt32BE(0);
  let offset = 4 + 4 * count;
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    const length = packed.readUInt32BE(4 + 4 * i);
    frames.push(packed.subarray(offset, offset + length));
    offset += length;
  }
  if (offset !== packed.length) throw new Error('packed frames are truncated or padded');
  return frames;
}
