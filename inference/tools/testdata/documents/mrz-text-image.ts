/**
 * Renders MRZ lines in the OCR-B font (Debian's fonts-ocr-b, extracted by
 * scripts/fetch-debian-assets.sh) with sharp's Pango text input. `fontfile` registers the font
 * with fontconfig for this process, so the system need not have it installed; ocr-b-font.test.ts
 * checks that the glyphs really are OCR-B and not a fallback.
 */
import path from 'node:path';
import sharp from 'sharp';

export const OCRB_FONT_FILE = path.resolve(__dirname, '../../../../.state/assets/debian/fonts/OCRB.otf');

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface TextImage {
  png: Buffer;
  width: number;
  height: number;
}

/** One line of text, dark on transparent, in the given Pango font (family name plus optional file). */
export async function textLine(text: string, dpi: number, font: string, fontfile?: string): Promise<TextImage> {
  const { data, info } = await sharp({
    text: { text: `<span foreground="#141414">${escape(text)}</span>`, font, fontfile, dpi, rgba: true },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

export const ocrbLine = (text: string, dpi: number): Promise<TextImage> => textLine(text, dpi, 'OCR B', OCRB_FONT_FILE);

/**
 * The MRZ block: each line scaled so that its characters sit at `pitch` pixels apart (ICAO 9303
 * prints 10 characters per inch), lines `lineGap` pixels apart, left-aligned.
 */
export async function mrzBlock(lines: string[], pitch: number, lineGap: number): Promise<TextImage> {
  const width = Math.round(pitch * Math.max(...lines.map((l) => l.length)));
  const rendered = await Promise.all(
    lines.map(async (line) => {
      const raw = await ocrbLine(line, 300);
      const scale = (pitch * line.length) / raw.width;
      const height = Math.round(raw.height * scale);
      return {
        png: await sharp(raw.png)
          .resize({ width: Math.round(raw.width * scale), height, fit: 'fill' })
          .png()
          .toBuffer(),
        height,
      };
    }),
  );
  const height = lineGap * (lines.length - 1) + rendered[rendered.length - 1].height;
  const png = await sharp({
    create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite(rendered.map((r, i) => ({ input: r.png, left: 0, top: i * lineGap })))
    .png()
    .toBuffer();
  return { png, width, height };
}
