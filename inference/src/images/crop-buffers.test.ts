import { borrowCropBuffer, returnCropBuffers } from './crop-buffers';

describe('crop buffers', () => {
  it('lends a handed-back crop again to the next borrower of its size', () => {
    const first = borrowCropBuffer(150 * 150 * 3);
    returnCropBuffers([first]);
    expect(borrowCropBuffer(150 * 150 * 3)).toBe(first);
  });

  it('never lends one crop to two borrowers, even when it is handed back twice', () => {
    const crop = borrowCropBuffer(80 * 80 * 3);
    returnCropBuffers([crop, crop]);
    returnCropBuffers([crop]);
    const a = borrowCropBuffer(80 * 80 * 3);
    const b = borrowCropBuffer(80 * 80 * 3);
    expect(a).toBe(crop);
    expect(b).not.toBe(a);
  });

  it("keeps a caller's own array out of the pool", () => {
    const own = new Float32Array(64 * 64 * 3);
    returnCropBuffers([own]);
    expect(borrowCropBuffer(64 * 64 * 3)).not.toBe(own);
  });

  it('leaves page-sized cuts to the collector', () => {
    const page = borrowCropBuffer(960 * 640 * 3);
    returnCropBuffers([page]);
    expect(borrowCropBuffer(960 * 640 * 3)).not.toBe(page);
  });
});
