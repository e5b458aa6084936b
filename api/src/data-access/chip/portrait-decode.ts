/**
 * DG2's portrait as a JPEG the face model's path takes: JPEG passes through; JPEG 2000 (JP2 file or
 * bare codestream) is decoded with OpenJPEG's WASM build (@cornerstonejs/codec-openjpeg, the
 * decode-only module) and re-encoded by sharp.
 */
import sharp from 'sharp';
import type { PortraitEncoding } from './lds-parse';

interface OpenJpegDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  decode(): void;
  getDecodedBuffer(): Uint8Array;
  getFrameInfo(): { width: number; height: number; bitsPerSample: number; componentCount: number };
  delete(): void;
}
interface OpenJpegDecodeModule {
  J2KDecoder: new () => OpenJpegDecoder;
}

let decoderModule: Promise<OpenJpegDecodeModule> | undefined;
function openJpeg(): Promise<OpenJpegDecodeModule> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const factory = require('@cornerstonejs/codec-openjpeg/decodewasmjs') as (
    options: object,
  ) => Promise<OpenJpegDecodeModule>;
  // OpenJPEG prints progress through Emscripten's print hooks; nothing of it belongs in our logs.
  decoderModule ??= factory({ print: () => undefined, printErr: () => undefined });
  return decoderModule;
}

/** The contiguous codestream: a JP2 file's jp2c box, or the data itself when it is one already. */
function codestreamOf(image: Buffer): Buffer {
  if (image[0] === 0xff && image[1] === 0x4f) return image;
  for (let at = 0; at + 8 <= image.length;) {
    let length = image.readUInt32BE(at);
    const type = image.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (length === 1) {
      length = Number(image.readBigUInt64BE(at + 8));
      header = 16;
    }
    if (length === 0) length = image.length - at;
    if (type === 'jp2c') return image.subarray(at + header, at + length);
    if (length < header) break;
    at += length;
  }
  throw new Error('JP2 file without a codestream box');
}

export const MAX_PORTRAIT_PIXELS = 4_000_000;

export async function portraitAsJpeg(image: Buffer, encoding: PortraitEncoding): Promise<Buffer> {
  if (encoding === 'jpeg') return image;
  const codec = await openJpeg();
  const decoder = new codec.J2KDecoder();
  try {
    const codestream = codestreamOf(image);
    decoder.getEncodedBuffer(codestream.length).set(codestream);
    decoder.decode();
    const { width, height, bitsPerSample, componentCount } = decoder.getFrameInfo();
    if (bitsPerSample !== 8 || (componentCount !== 1 && componentCount !== 3) || width * height > MAX_PORTRAIT_PIXELS)
      throw new Error(
        `JPEG 2000 portrait ${width}x${height}, ${componentCount} x ${bitsPerSample} bits is not supported`,
      );
    const pixels = Buffer.from(decoder.getDecodedBuffer());
    return await sharp(pixels, { raw: { width, height, channels: componentCount } })
      .jpeg({ quality: 92 })
      .toBuffer();
  } finally {
    decoder.delete();
  }
}
