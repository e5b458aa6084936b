/** BER-TLV encoding for the ICAO 9303 data group files (application-class tags, definite lengths). */
export function tlv(tag: number, ...values: Buffer[]): Buffer {
  const value = Buffer.concat(values);
  const tagBytes = tag > 0xff ? Buffer.from([tag >> 8, tag & 0xff]) : Buffer.from([tag]);
  return Buffer.concat([tagBytes, berLength(value.length), value]);
}

export function berLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export const u16 = (n: number): Buffer => Buffer.from([n >> 8, n & 0xff]);
export const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
