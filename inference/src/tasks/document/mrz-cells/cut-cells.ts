/**
 * Cuts an MRZ row into its fixed-pitch character cells. OCR-B is monospaced: every character sits
 * in a cell one pitch wide, so once the ink's band (cap top to baseline) and its left end are
 * found, cell k spans [x0 + k * pitch, x0 + (k + 1) * pitch]. Each cell is sampled over the band
 * widened by a quarter of its height above and below, to CELL_WIDTH x CELL_HEIGHT darkness (ink 1,
 * paper 0, by the band's 2 % / 98 % grey levels): exactly what the classifier was trained on
 * (inference/tools/mrz-cells/train_mrz_cells.py cuts its cells the same way).
 */
import { sample } from '../../../images/affine-sampler';
import { returnCropBuffers } from '../../../images/crop-buffers';
import type { RgbImage } from '../../../images/rgb-image';
import { selectInPlace } from '../ocr/order-statistic';
import type { TextBox } from '../ocr/text-box';
import { boxMap } from '../ocr/text-recognition';

export const CELL_WIDTH = 16;
export const CELL_HEIGHT = 24;
const BAND_MARGIN = 0.25;

/** OCR-B's advance over its capital height (72.3 / 71 px at 100 px, measured on OCRB.otf). */
export const PITCH_OVER_CAP_HEIGHT = 1.004;
/** A glyph's ink starts about 0.15 of a pitch into its cell and spans about 0.68 of it. */
const LEFT_BEARING = 0.15;
const INK_SHARE = 0.68;

/** The row strip is cut at this height, over this share of the detected box's height. */
const STRIP_HEIGHT = 40;
const STRIP_SHARE = 1.3;

export interface RowCells {
  /** Cells, each CELL_HEIGHT x CELL_WIDTH darkness values, row-major, one after another. */
  pixels: Float32Array;
  count: number;
}

interface Strip {
  grey: Float32Array;
  width: number;
  height: number;
}

function cutStrip(image: RgbImage, box: TextBox): Strip {
  const height = STRIP_HEIGHT;
  const width = Math.max(8, Math.round((box.width * height) / (box.height * STRIP_SHARE)));
  const rgb = sample(image, boxMap(box, width, height, STRIP_SHARE), width, height, 'border');
  const grey = new Float32Array(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + 0.114 * rgb[3 * i + 2];
  returnCropBuffers([rgb]);
  return { grey, width, height };
}

/** The 2 % and 98 % grey levels of the strip's rows top..bottom, columns left..right. */
function levels(strip: Strip, top: number, bottom: number, left: number, right: number): { low: number; span: number } {
  const values: number[] = [];
  for (let y = Math.max(0, top); y < Math.min(strip.height, bottom); y++)
    for (let x = Math.max(0, left); x < Math.min(strip.width, right); x++) values.push(strip.grey[y * strip.width + x]);
  if (values.length === 0) return { low: 0, span: 255 };
  const v = Float32Array.from(values);
  const low = selectInPlace(v, Math.floor(0.02 * v.length));
  const high = selectInPlace(v, Math.floor(0.98 * v.length), Math.floor(0.02 * v.length));
  return { low, span: Math.max(1, high - low) };
}

/** The longest run of indices whose value is at least `share` of the largest. */
function mainRun(profile: Float64Array, share: number): [number, number] {
  const max = Math.max(...profile);
  let best: [number, number] = [0, profile.length];
  let start = -1;
  for (let i = 0; i <= profile.length; i++) {
    const on = i < profile.length && profile[i] >= share * max;
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      if (i - start > best[1] - best[0] || best[1] - best[0] === profile.length) best = [start, i];
      start = -1;
    }
  }
  return best;
}

/**
 * The glyphs' period along the row: the lag, within a sixth of `near`, at which the column profile
 * best matches itself. The capital height alone gives the pitch only to within 8 % (digits stand
 * taller than letters, fillers shorter), too loose to count 44 cells.
 */
function periodOf(columns: Float64Array, from: number, to: number, near: number): number {
  const n = to - from;
  let mean = 0;
  for (let x = from; x < to; x++) mean += columns[x] / n;
  const corr = (lag: number): number => {
    let s = 0;
    for (let x = from; x + lag < to; x++) s += (columns[x] - mean) * (columns[x + lag] - mean);
    return s / Math.max(1, n - lag);
  };
  const lo = Math.max(2, Math.floor(near * 0.83));
  const hi = Math.min(n - 1, Math.ceil(near * 1.17));
  let best = -1;
  for (let lag = lo; lag <= hi; lag++) if (best < 0 || corr(lag) > corr(best)) best = lag;
  if (best < 0) return near;
  // A parabola through the peak and its neighbours places it between whole pixels.
  const [a, b, c] = [corr(best - 1), corr(best), corr(best + 1)];
  const bend = a - 2 * b + c;
  return bend < 0 ? best + (0.5 * (a - c)) / bend : best;
}

export interface RowGeometry {
  top: number;
  bottom: number;
  x0: number;
  pitch: number;
  count: number;
}

/**
 * Where the cells lie in the strip: the ink band from the row profile, the ink's ends from the
 * column profile, the pitch from the ends and `count` (or, unknown, from the band's height), and
 * then pitch and origin nudged so the cell boundaries fall in the light gaps between glyphs.
 */
function inkRows(strip: Strip): { top: number; bottom: number; darkness: (g: number) => number } {
  const { width, height } = strip;
  const all = levels(strip, 0, height, 0, width);
  const darkness = (g: number): number => Math.min(1, Math.max(0, 1 - (g - all.low) / all.span));
  const rows = new Float64Array(height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows[y] += darkness(strip.grey[y * width + x]);
  const [top, bottom] = mainRun(rows, 0.35);
  return { top, bottom, darkness };
}

export function rowGeometry(strip: Strip, count?: number): RowGeometry | null {
  const { width } = strip;
  const { top, bottom, darkness } = inkRows(strip);
  const capHeight = bottom - top;
  if (capHeight < 4) return null;
  const columns = new Float64Array(width);
  for (let x = 0; x < width; x++) for (let y = top; y < bottom; y++) columns[x] += darkness(strip.grey[y * width + x]);
  const colMax = Math.max(...columns);
  const inked = (x: number): boolean => columns[x] >= 0.2 * colMax;
  let left = 0;
  while (left < width && !inked(left)) left++;
  let right = width - 1;
  while (right > left && !inked(right)) right--;
  const extent = right + 1 - left;
  const guess =
    count === undefined
      ? periodOf(columns, left, right + 1, PITCH_OVER_CAP_HEIGHT * capHeight)
      : extent / (count - 1 + INK_SHARE);
  const n = count ?? Math.round(extent / guess + 1 - INK_SHARE);
  if (n < 1) return null;
  const at = (x: number): number => {
    if (x <= 0 || x >= width - 1) return 0;
    const i = Math.floor(x);
    return columns[i] + (x - i) * (columns[i + 1] - columns[i]);
  };
  let best = { x0: left - LEFT_BEARING * guess, pitch: guess, score: Infinity };
  for (let dp = -0.03; dp <= 0.0301; dp += 0.003) {
    const pitch = guess * (1 + dp);
    for (let shift = -0.12; shift <= 0.1201; shift += 0.03) {
      const x0 = left - (LEFT_BEARING + shift) * pitch;
      let score = 0;
      for (let k = 0; k <= n; k++) score += at(x0 + k * pitch);
      if (score < best.score) best = { x0, pitch, score };
    }
  }
  return { top, bottom, x0: best.x0, pitch: best.pitch, count: n };
}

function bilinear(strip: Strip, x: number, y: number): number {
  const cx = Math.min(strip.width - 1.001, Math.max(0, x));
  const cy = Math.min(strip.height - 1.001, Math.max(0, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const fx = cx - x0;
  const fy = cy - y0;
  const d = strip.grey;
  const w = strip.width;
  return (
    d[y0 * w + x0] * (1 - fx) * (1 - fy) +
    d[y0 * w + x0 + 1] * fx * (1 - fy) +
    d[(y0 + 1) * w + x0] * (1 - fx) * fy +
    d[(y0 + 1) * w + x0 + 1] * fx * fy
  );
}

export function cellsOfStrip(strip: Strip, geometry: RowGeometry): RowCells {
  const { top, bottom, x0, pitch, count } = geometry;
  const h = bottom - top;
  const band = levels(
    strip,
    Math.floor(top - BAND_MARGIN * h),
    Math.ceil(bottom + BAND_MARGIN * h),
    Math.floor(x0),
    Math.ceil(x0 + count * pitch),
  );
  const size = CELL_WIDTH * CELL_HEIGHT;
  const pixels = new Float32Array(count * size);
  const cellHeight = h * (1 + 2 * BAND_MARGIN);
  const cy = (top + bottom) / 2;
  for (let k = 0; k < count; k++) {
    const cx = x0 + (k + 0.5) * pitch;
    for (let v = 0; v < CELL_HEIGHT; v++) {
      const y = cy + ((v + 0.5) / CELL_HEIGHT - 0.5) * cellHeight - 0.5;
      for (let u = 0; u < CELL_WIDTH; u++) {
        const x = cx + ((u + 0.5) / CELL_WIDTH - 0.5) * pitch - 0.5;
        const level = (bilinear(strip, x, y) - band.low) / band.span;
        pixels[k * size + v * CELL_WIDTH + u] = Math.min(1, Math.max(0, 1 - level));
      }
    }
  }
  return { pixels, count };
}

/**
 * A row's box height over its ink band (cap top to baseline) as the text detector draws it on the
 * full page at 960 px: median 1.40 (p10 1.28, p90 1.47) over the 65 MRZ-shaped boxes of 30 clean
 * evaluation passports; on the same pages reduced to 480 px it is 1.92.
 */
export const BOX_OVER_CAP = 1.4;

/**
 * The box re-fitted to its row's ink at full resolution: centred across on the ink band and as
 * tall as the full page's detector makes a row's box (BOX_OVER_CAP). A box detected on a reduced
 * page comes out taller (its dilation is in the reduced page's pixels), so its strip is cut over
 * more height at the same 40 px and the cells lose detail.
 */
export function refitToInk(image: RgbImage, box: TextBox): TextBox {
  const strip = cutStrip(image, box);
  const { top, bottom } = inkRows(strip);
  if (bottom - top < 4) return box;
  const scale = (box.height * STRIP_SHARE) / strip.height;
  const shift = ((top + bottom) / 2 - strip.height / 2) * scale;
  return {
    ...box,
    cx: box.cx - Math.sin(box.angle) * shift,
    cy: box.cy + Math.cos(box.angle) * shift,
    height: (bottom - top) * scale * BOX_OVER_CAP,
  };
}

/** The cells of the row in `box`: `count` of them, or as many as the ink holds at OCR-B's pitch. */
export function cutCells(image: RgbImage, box: TextBox, count?: number): RowCells | null {
  const strip = cutStrip(image, box);
  const geometry = rowGeometry(strip, count);
  return geometry ? cellsOfStrip(strip, geometry) : null;
}
