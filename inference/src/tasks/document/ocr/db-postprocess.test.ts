import { dbBoxes } from './db-postprocess';

/** A probability map with filled rectangles (optionally rotated) of text probability 0.9. */
function map(
  width: number,
  height: number,
  rects: Array<{ cx: number; cy: number; w: number; h: number; angle?: number }>,
): Float32Array {
  const prob = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (const r of rects) {
        const c = Math.cos(r.angle ?? 0);
        const s = Math.sin(r.angle ?? 0);
        const u = (x + 0.5 - r.cx) * c + (y + 0.5 - r.cy) * s;
        const v = -(x + 0.5 - r.cx) * s + (y + 0.5 - r.cy) * c;
        if (Math.abs(u) <= r.w / 2 && Math.abs(v) <= r.h / 2) prob[y * width + x] = 0.9;
      }
    }
  }
  return prob;
}

const thresholds = { binarize: 0.3, boxScore: 0.6, unclipRatio: 1.5 };

describe('DB post-processing of the text probability map', () => {
  it('finds one box per text region, grown back by the unclip ratio', () => {
    const boxes = dbBoxes(
      map(200, 100, [
        { cx: 100, cy: 30, w: 160, h: 10 },
        { cx: 60, cy: 70, w: 80, h: 8 },
      ]),
      200,
      200,
      100,
      thresholds,
    );
    expect(boxes).toHaveLength(2);
    const top = boxes.find((b) => b.cy < 50)!;
    const grow = (160 * 10 * 1.5) / (2 * (160 + 10));
    expect(top.cx).toBeCloseTo(100, 0);
    expect(top.width).toBeCloseTo(160 + 2 * grow, 0);
    expect(top.height).toBeCloseTo(10 + 2 * grow, 0);
    expect(top.score).toBeCloseTo(0.9);
  });

  it('measures the slant of a tilted line', () => {
    const [box] = dbBoxes(map(300, 200, [{ cx: 150, cy: 100, w: 200, h: 12, angle: 0.1 }]), 300, 300, 200, thresholds);
    expect(box.angle).toBeCloseTo(0.1, 1);
    expect(box.width).toBeGreaterThan(200);
  });

  it('ignores the padded part of the map and regions below the box score', () => {
    const prob = map(200, 100, [
      { cx: 170, cy: 50, w: 40, h: 10 },
      { cx: 50, cy: 50, w: 40, h: 10 },
    ]);
    for (let i = 0; i < prob.length; i++) if (prob[i] > 0 && i % 200 < 100) prob[i] = 0.4;
    expect(dbBoxes(prob, 200, 150, 100, thresholds)).toHaveLength(0);
  });
});
