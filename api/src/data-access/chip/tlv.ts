import { ChipFormatError } from '../../domain/ports/chip-verifier';

/** One BER-TLV element of an ICAO 9303 file: its tag (as a number) and its value's bounds. */
export interface Tlv {
  tag: number;
  value: Buffer;
  end: number;
}

/** Reads the TLV at `offset`; throws ChipFormatError naming `field` when it runs past the data. */
export function readTlv(data: Buffer, offset: number, field: string): Tlv {
  const fail = (why: string): never => {
    throw new ChipFormatError(field, `malformed TLV: ${why}`);
  };
  let at = offset;
  if (at >= data.length) fail('no tag');
  let tag = data[at++];
  if ((tag & 0x1f) === 0x1f) {
    do {
      if (at >= data.length || tag > 0xffffff) fail('tag runs past the data');
      tag = (tag << 8) | data[at];
    } while (data[at++] & 0x80);
  }
  if (at >= data.length) fail('no length');
  let length = data[at++];
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3 || at + count > data.length) fail('bad length');
    length = 0;
    for (let i = 0; i < count; i++) length = (length << 8) | data[at++];
  }
  if (at + length > data.length) fail(`length ${length} runs past the data`);
  return { tag, value: data.subarray(at, at + length), end: at + length };
}

/** The file's single outer element, which must carry `tag` and fill the file. */
export function readFile(data: Buffer, tag: number, field: string): Buffer {
  const outer = readTlv(data, 0, field);
  if (outer.tag !== tag)
    throw new ChipFormatError(field, `expected tag 0x${tag.toString(16)}, found 0x${outer.tag.toString(16)}`);
  return outer.value;
}

/** The children of a constructed value, in order. */
export function children(value: Buffer, field: string): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < value.length;) {
    const element = readTlv(value, at, field);
    out.push(element);
    at = element.end;
  }
  return out;
}
