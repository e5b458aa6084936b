/**
 * Test support: an MRZ row rendered in OCR-B (as the synthetic documents are) on light paper, with
 * the rotated box around it that text detection would give, optionally turned and blurred.
 */
import sharp from 'sharp';
import { ocrbLine } from '../../../../tools/testdata/documents/mrz-text-image';
import type { RgbImage } from '../../../images/rgb-image';
import type { TextBox } from '../ocr/text-box';

export interface RenderedRow {
  image: RgbImage;
  box: TextBox;
}

export async function renderedRow(
  text: string,
  options: { pitch?: number; degrees?: number; blur?: number } = {},
): Promise<RenderedRow> {
  const pitch = options.pitch ?? 18;
  const degrees = options.degrees ?? 0;
  const raw = await ocrbLine(text, 300);
  const scale = (pitch * text.length) / raw.width;
  const width = Math.round(raw.width * scale);
  const height = Math.round(raw.height * scale);
  const line = await sharp(raw.png).resize({ width, height, fit: 'fill' }).png().toBuffer();
  const margin = 3 * pitch;
  let page = sharp({
    create: { width: width + 2 * margin, height: height + 2 * margin, channels: 3, background: '#ece6d8' },
  }).composite([{ input: line, left: margin, top: margin }]);
  page = sharp(await page.png().toBuffer()).rotate(degrees, { background: '#ece6d8' });
  if (options.blur) page = page.blur(options.blur);
  const { data, info } = await page.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    image: { data: new Uint8Array(data), width: info.width, height: info.height },
    // The detector's box: the line's extent, a little wider, turned with the page.
    box: {
      cx: info.width / 2,
      cy: info.height / 2,
      width: width + pitch,
      height: height * 1.1,
      angle: (degrees * Math.PI) / 180,
      score: 1,
    },
  };
}
