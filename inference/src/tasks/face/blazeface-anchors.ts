/**
 * BlazeFace's fixed anchor grid (SSD-style, as MediaPipe and @vladmandic/human generate it): for a
 * 256 input, 16x16 cells with 2 anchors then 8x8 cells with 6, each at its cell centre in pixels.
 */
export function blazefaceAnchors(inputSize: number): Array<[number, number]> {
  const spec =
    inputSize === 192 ? { strides: [4], anchors: [1] } : { strides: [inputSize / 16, inputSize / 8], anchors: [2, 6] };
  const anchors: Array<[number, number]> = [];
  spec.strides.forEach((stride, level) => {
    const cells = Math.floor((inputSize + stride - 1) / stride);
    for (let y = 0; y < cells; y++) {
      for (let x = 0; x < cells; x++) {
        for (let n = 0; n < spec.anchors[level]; n++) anchors.push([stride * (x + 0.5), stride * (y + 0.5)]);
      }
    }
  });
  return anchors;
}
