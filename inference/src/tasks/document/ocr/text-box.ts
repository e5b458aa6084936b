/** A detected text line as a rotated rectangle in source-image pixels. */
export interface TextBox {
  cx: number;
  cy: number;
  /** Extent along the text direction. */
  width: number;
  /** Extent across it. */
  height: number;
  /** Text direction, radians clockwise from the image x axis (image y points down). */
  angle: number;
  /** Mean text probability inside the region. */
  score: number;
}

/** Where a box's left and right ends and top edge sit, for ordering lines on a page. */
export function boxExtent(box: TextBox): { left: number; right: number; top: number; bottom: number } {
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [u, v] of [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ]) {
    xs.push(box.cx + (c * u * box.width - s * v * box.height) / 2);
    ys.push(box.cy + (s * u * box.width + c * v * box.height) / 2);
  }
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

/** The part of a box between fractions `from` and `to` of its length (0 = its start). */
export function subBox(box: TextBox, from: number, to: number): TextBox {
  const shift = ((from + to) / 2 - 0.5) * box.width;
  return {
    ...box,
    width: (to - from) * box.width,
    cx: box.cx + Math.cos(box.angle) * shift,
    cy: box.cy + Math.sin(box.angle) * shift,
  };
}
