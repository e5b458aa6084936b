/**
 * Greedy CTC decoding of the PaddleOCR recogniser's per-frame class probabilities (class 0 is the
 * CTC blank), or of the few values per frame greedy decoding reads from them when the model
 * computes those in its graph. Two readings come from the same frames: the plain one over the whole charset, and
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
  const gaps = at
    .slice(1)
    .map((t, i) => t - at[i])
    .sort((a, b) => a - b);
  const usual = gaps[Math.floor(gaps.length / 2)] ?? 0;
  return chars
    .map((c, i) =>
      i > 0 && c !== ' ' && chars[i - 1] !== ' ' && at[i] - at[i - 1] > SPACE_GAP * usual && gaps.length >= 3
        ? ` ${c}`
        : c,
    )
    .join('');
}

/** What greedy decoding reads from one frame; the MRZ pair is ranked among mrzClasses only. */
interface FrameTop {
  best: number;
  bestProb: number;
  mrzTop: number;
  mrzTopProb: number;
  /** -1 when the charset has a single MRZ class. */
  mrzSecond: number;
  mrzSecondProb: number;
}

/**
 * The recogniser's reduced outputs (a model version with the decoding heads in its graph), per
 * frame: the argmax class and its probability, and the two most likely MRZ classes with theirs.
 */
export interface CtcHeads {
  bestClass: Int32Array;
  bestProb: Float32Array;
  /** Two per frame. */
  mrzTop2Class: Int32Array;
  mrzTop2Prob: Float32Array;
}

function decodeFrames(frames: number, charset: Charset, read: (t: number, frame: FrameTop) => void): DecodedLine {
  const chars: string[] = [];
  const at: number[] = [];
  let sum = 0;
  let emitted = 0;
  let previous = 0;
  const mrz: CharReading[] = [];
  let mrzPrevious = 0;
  const frame: FrameTop = {
    best: 0,
    bestProb: 0,
    mrzTop: -1,
    mrzTopProb: 0,
    mrzSecond: -1,
    mrzSecondProb: 0,
  };
  for (let t = 0; t < frames; t++) {
    read(t, frame);
    const best = frame.best;
    if (best !== 0 && best !== previous) {
      chars.push(charset.classes[best]);
      at.push(t);
      sum += frame.bestProb;
      emitted++;
    }
    previous = best;

    // MRZ reading: where the plain reading sees a character (even one outside the MRZ alphabet,
    // like '[' for a serifed OCR-B 'I'), the most likely MRZ character stands in for it.
    const first = best !== 0 ? frame.mrzTop : 0;
    if (first !== 0) {
      const alternative =
        frame.mrzSecond >= 0 ? { char: charset.classes[frame.mrzSecond], prob: frame.mrzSecondProb } : undefined;
      const last = mrz[mrz.length - 1];
      if (first !== mrzPrevious) mrz.push({ char: charset.classes[first], prob: frame.mrzTopProb, alternative });
      else if (frame.mrzTopProb > last.prob)
        mrz[mrz.length - 1] = { char: last.char, prob: frame.mrzTopProb, alternative };
    }
    mrzPrevious = first;
  }
  return { text: withSpaces(chars, at), score: emitted ? sum / emitted : 0, mrz };
}

/** Decodes one line from the full per-frame class probabilities, laid out [frames, classes] from `offset`. */
export function decodeLine(probs: Float32Array, offset: number, frames: number, charset: Charset): DecodedLine {
  const count = charset.classes.length;
  return decodeFrames(frames, charset, (t, frame) => {
    const row = offset + t * count;
    let best = 0;
    for (let c = 1; c < count; c++) if (probs[row + c] > probs[row + best]) best = c;
    frame.best = best;
    frame.bestProb = probs[row + best];
    let top = -1;
    let second = -1;
    for (const c of charset.mrzClasses) {
      if (top === -1 || probs[row + c] > probs[row + top]) {
        second = top;
        top = c;
      } else if (second === -1 || probs[row + c] > probs[row + second]) second = c;
    }
    frame.mrzTop = top;
    frame.mrzTopProb = probs[row + top];
    frame.mrzSecond = second;
    frame.mrzSecondProb = second >= 0 ? probs[row + second] : 0;
  });
}

/**
 * Decodes line `line` of a batch from the reduced outputs: the same reading, character for
 * character and score for score, as decodeLine over the probabilities they were reduced from.
 */
export function decodeLineFromHeads(heads: CtcHeads, line: number, frames: number, charset: Charset): DecodedLine {
  return decodeFrames(frames, charset, (t, frame) => {
    const at = line * frames + t;
    frame.best = heads.bestClass[at];
    frame.bestProb = heads.bestProb[at];
    frame.mrzTop = heads.mrzTop2Class[2 * at];
    frame.mrzTopProb = heads.mrzTop2Prob[2 * at];
    frame.mrzSecond = heads.mrzTop2Class[2 * at + 1];
    frame.mrzSecondProb = heads.mrzTop2Prob[2 * at + 1];
  });
}
