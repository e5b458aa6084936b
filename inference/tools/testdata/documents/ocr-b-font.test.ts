import sharp from 'sharp';
import { ocrbLine, textLine } from './mrz-text-image';

const alpha = async (png: Buffer): Promise<Buffer> => sharp(png).extractChannel('alpha').raw().toBuffer();

describe('the OCR-B font used for synthetic MRZs', () => {
  it('is monospaced, as OCR-B is: a line of I is as wide as a line of W', async () => {
    const narrow = await ocrbLine('IIIIIIIIIIIIIIIIIIII', 150);
    const wide = await ocrbLine('WWWWWWWWWWWWWWWWWWWW', 150);
    expect(Math.abs(narrow.width - wide.width)).toBeLessThanOrEqual(4);
  });

  it('is not the fallback font that Pango substitutes for a family it cannot find', async () => {
    const text = 'P<UTOERIKSSON<<ANNA<MARIA0O8B';
    const ocrb = await ocrbLine(text, 150);
    const fallback = await textLine(text, 150, 'No Such Font Family');
    const identical =
      ocrb.width === fallback.width &&
      ocrb.height === fallback.height &&
      (await alpha(ocrb.png)).equals(await alpha(fallback.png));
    expect(identical).toBe(false);
  });
});
