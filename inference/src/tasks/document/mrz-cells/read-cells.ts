/**
 * Reads MRZ rows with the OCR-B cell classifier (models/mrz-cells): every cell of every row given
 * goes through the model in one batch (split only at the model's batch limit), and each row comes
 * back as the LineReading the CTC reader produces (each character with its probability and the
 * runner-up), so the MRZ's repair, correction and merging take it unchanged.
 */
import type { ModelRunner } from '../../../runtime/model-runner';
import type { RgbImage } from '../../../images/rgb-image';
import { chunks } from '../../batch-chunks';
import type { LineReading } from '../mrz/mrz-reading';
import type { TextBox } from '../ocr/text-box';
import { CELL_HEIGHT, CELL_WIDTH, cutCells, type RowCells } from './cut-cells';

export const mrzCellsModel = 'mrz-cells';

/** The classifier's classes, in the order of its `prob` output. */
export const CELL_CLASSES = '<0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The reading of each cell from the model's probabilities (classes in CELL_CLASSES order). */
export function cellReadings(prob: Float32Array, count: number): LineReading {
  const k = CELL_CLASSES.length;
  const out: LineReading = [];
  for (let c = 0; c < count; c++) {
    let first = 0;
    let second = -1;
    for (let j = 1; j < k; j++) {
      const p = prob[c * k + j];
      if (p > prob[c * k + first]) {
        second = first;
        first = j;
      } else if (second < 0 || p > prob[c * k + second]) second = j;
    }
    out.push({
      char: CELL_CLASSES[first],
      prob: prob[c * k + first],
      alternative: { char: CELL_CLASSES[second], prob: prob[c * k + second] },
    });
  }
  return out;
}

export interface CellRow {
  box: TextBox;
  /** Cells to cut; absent: as many as the ink holds at OCR-B's pitch. */
  count?: number;
}

/** Each row's reading, or null where no ink band was found in its box. */
export async function readCells(
  runner: ModelRunner,
  image: RgbImage,
  rows: CellRow[],
): Promise<Array<LineReading | null>> {
  const cut = rows.map((r) => cutCells(image, r.box, r.count));
  const cells: Array<{ row: number; index: number }> = [];
  cut.forEach((c, row) => {
    for (let index = 0; index < (c?.count ?? 0); index++) cells.push({ row, index });
  });
  const size = CELL_WIDTH * CELL_HEIGHT;
  const prob = new Float32Array(cells.length * CELL_CLASSES.length);
  const config = runner.config(mrzCellsModel);
  let done = 0;
  for (const group of chunks(cells, config.max_batch_size)) {
    const data = new Float32Array(group.length * size);
    group.forEach((cell, n) => {
      const source = (cut[cell.row] as RowCells).pixels;
      data.set(source.subarray(cell.index * size, (cell.index + 1) * size), n * size);
    });
    const outputs = await runner.infer(mrzCellsModel, {
      cells: { dims: [group.length, 1, CELL_HEIGHT, CELL_WIDTH], dtype: 'float32', data },
    });
    prob.set(outputs.prob.data as Float32Array, done * CELL_CLASSES.length);
    done += group.length;
  }
  let offset = 0;
  return cut.map((c) => {
    if (!c) return null;
    const reading = cellReadings(prob.subarray(offset * CELL_CLASSES.length), c.count);
    offset += c.count;
    return reading;
  });
}
