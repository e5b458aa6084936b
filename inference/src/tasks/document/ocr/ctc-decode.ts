/**
 * Greedy CTC decoding of the PaddleOCR recogniser's per-frame class probabilities (class 0 is the
 * CTC blank). Two readings come from the same frames: the plain one over the whole charset, and
 * one in the MRZ alphabet, emitting a character wherever the plain reading does, that also keeps
 * for each character the runner-up MRZ character at its most confident frame, which MRZ
 * correction uses to choose among candidates.
 */
import type { CharReading, LineReading } from '../mrz/mrz-reading';

export interface DecodedLine {
  text: string;
  /** Mean probability of the emitted characters (0 when none). */
  score: number;
  mrz: LineReading;
}

export interface Charset {
  /** Class index to character; index 0 is the blank. */
  classes: string[];
  /** Class indices of A-Z, 0-9 and '<'. */
  mrzClasses: Int32Array;
}

/**
 * The recogniser rarely emits the space class for Latin text ("171ULICAFLORIANSKA"). Characters
 * are spread evenly along the frames, so a gap much wider than the line's usual spacing is a space:
 * on the synthetic cards a word gap spans about 1.5 times the median character step, a wide letter
 * (W, M) at most 1.25 times.
 */
const SPACE_GAP = 1.4;

function withSpaces(chars: string[], at: number[]): string {
  const gaps = at.slice(1).map((t, i) => t - at[i]).sort((a, b) => a - b);
  const usual = gaps[Math.floor(gaps.length / 2)] ?? 0;
  return chars.map((c, i) => (i > 0 && c !== ' ' && chars[i - 1] !== ' ' && at[i] - at[i - 1] > SPACE_GAP * usual && gaps.length >= 3 ? ` ${c}` : c)).join('');
}

export function decodeLine(probs: Float32Array, offset: number, frames: number, charset: Charset): DecodedLine {
  const count = charset.classes.length;
  const chars: string[] = [];
  const at: number[] = [];
  let sum = 0;
  let emitted = 0;
  let previous = 0;
  const mrz: CharReading[] = [];
  let mrzPrevious = 0;
  for (let t = 0; t < frames; t++) {
    const row = offset + t * count;
    let best = 0;
    for (let c = 1; c < count; c++) if (probs[row + c] > probs[row + best]) best = c;
    if (best !== 0 && best !== previous) {
      chars.push(charset.classes[best]);
      at.push(t);
      sum += probs[row + best];
      emitted++;
    }
    previous = best;

    // MRZ reading: where the plain reading sees a character (even one outside the MRZ alphabet,
    // like '[' for a serifed OCR-B 'I'), the most likely MRZ character stands in for it.
    let top = -1;
    let second = -1;
    for (const c of charset.mrzClasses) {
      if (top === -1 || probs[row + c] > probs[row + top]) {
        second = top;
        top = c;
      } else if (second === -1 || probs[row + c] > probs[row + second]) second = c;
    }
    const first = best !== 0 ? top : 0;
    if (first !== 0) {
      const alternative = second >= 0 ? { char: charset.classes[second], prob: probs[row + second] } : undefined;
      const last = mrz[mrz.length - 1];
      if (first !== mrzPrevious) mrz.push({ char: charset.classes[first], prob: probs[row + first], alternative });
      else if (probs[row + first] > last.prob) mrz[mrz.length - 1] = { char: last.char, prob: probs[row + first], alternative };
    }
    mrzPrevious = first;
  }
  return { text: withSpaces(chars, at), score: emitted ? sum / emitted : 0, mrz };
}
