/** The chip portrait in the two encodings DG2 uses: JPEG (sharp) and JPEG 2000 (OpenJPEG WASM). */
import sharp from 'sharp';
import { u16, u32 } from './tlv';

export const PORTRAIT_SIZE = { width: 240, height: 320 };

interface OpenJpegEncoder {
  getDecodedBuffer(info: object): Uint8Array;
  setQuality(lossless: boolean, quality: number): void;
  setCompressionRatio(layer: number, ratio: number): void;
  encode(): void;
  getEncodedBuffer(): Uint8Array;
  delete(): void;
}
interface OpenJpegModule {
  J2KEncoder: new () => OpenJpegEncoder;
}

let openJpeg: Promise<OpenJpegModule> | undefined;
function loadOpenJpeg(): Promise<OpenJpegModule> {
  // The full build carries the encoder; the API loads the decode-only build.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const factory = require('@cornerstonejs/codec-openjpeg/wasmjs') as (options: object) => Promise<OpenJpegModule>;
  openJpeg ??= factory({ print: () => undefined, printErr: () => undefined });
  return openJpeg;
}

const box = (type: string, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'ascii'), body]);
};

/** A JP2 file (ISO/IEC 15444-1 Annex I): signature, file type, header, then the codestream. */
function jp2File(codestream: Buffer, width: number, height: number): Buffer {
  const ihdr = box('ihdr', u32(height), u32(width), u16(3), Buffer.from([7, 7, 0, 0]));
  const colr = box('colr', Buffer.from([1, 0, 0]), u32(16)); // enumerated sRGB
  return Buffer.concat([
    box('jP  ', Buffer.from([0x0d, 0x0a, 0x87, 0x0a])),
    box('ftyp', Buffer.from('jp2 ', 'ascii'), u32(0), Buffer.from('jp2 ', 'ascii')),
    box('jp2h', ihdr, colr),
    box('jp2c', codestream),
  ]);
}

export async function encodePortrait(portrait: Buffer, type: 'jpeg' | 'jpeg2000'): Promise<Buffer> {
  const sized = sharp(portrait).resize(PORTRAIT_SIZE.width, PORTRAIT_SIZE.height, { fit: 'cover' }).removeAlpha();
  if (type === 'jpeg') return sized.jpeg({ quality: 80 }).toBuffer();
  // OpenJPEG's WASM build ignores rate settings; a slight blur keeps the file near real DG2 sizes.
  const { data, info } = await sized.blur(0.7).raw().toBuffer({ resolveWithObject: true });
  const codec = await loadOpenJpeg();
  const encoder = new codec.J2KEncoder();
  try {
    encoder
      .getDecodedBuffer({
        width: info.width,
        height: info.height,
        bitsPerSample: 8,
        componentCount: 3,
        isSigned: false,
        isUsingColorSpace: false,
      })
      .set(data);
    encoder.setQuality(false, 0);
    encoder.encode();
    return jp2File(Buffer.from(encoder.getEncodedBuffer()), info.width, info.height);
  } finally {
    encoder.delete();
  }
}
