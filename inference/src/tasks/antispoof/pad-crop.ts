import { boxToSize, sample } from '../../images/affine-sampler';
import type { RgbImage } from '../../images/rgb-image';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScaledBox {
  /** Inclusive pixel corners, as upstream's CropImage returns them (integers). */
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** The enlargement actually applied: the wanted one, or less when the image is too small for it. */
  appliedScale: number;
  /** appliedScale / wanted scale: 1 when the crop has all the context the model was trained with. */
  room: number;
}

/**
 * MiniFASNet's crop, exactly as Silent-Face-Anti-Spoofing's `CropImage._get_new_box`: the face box
 * enlarged `scale` times around its centre, the scale first lowered so the enlarged box fits the
 * image (`min((H-1)/h, (W-1)/w, scale)`), then shifted (not clipped) back inside the image where
 * it runs over an edge, and truncated to integers. A face that fills the frame therefore gets a
 * smaller scale, i.e. less context than the model was trained on: `room` says how much.
 */
export function scaledBox(imageWidth: number, imageHeight: number, box: Box, wanted: number): ScaledBox {
  const scale = Math.min((imageHeight - 1) / box.height, (imageWidth - 1) / box.width, wanted);
  const width = box.width * scale;
  const height = box.height * scale;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  let left = cx - width / 2;
  let top = cy - height / 2;
  let right = cx + width / 2;
  let bottom = cy + height / 2;
  if (left < 0) {
    right -= left;
    left = 0;
  }
  if (top < 0) {
    bottom -= top;
    top = 0;
  }
  if (right > imageWidth - 1) {
    left -= right - imageWidth + 1;
    right = imageWidth - 1;
  }
  if (bottom > imageHeight - 1) {
    top -= bottom - imageHeight + 1;
    bottom = imageHeight - 1;
  }
  return {
    left: int(left),
    top: int(top),
    right: int(right),
    bottom: int(bottom),
    appliedScale: scale,
    room: scale / wanted,
  };
}

/** Python's int(): truncates toward zero (and + 0 turns a -0 into 0). */
const int = (value: number) => Math.trunc(value) + 0;

/**
 * Cuts the scaled box (inclusive corners, so right - left + 1 pixels wide) and resizes it to
 * size x size with one bilinear tap per pixel, as upstream's `cv2.resize` (INTER_LINEAR) does.
 */
export function padCrop(
  image: RgbImage,
  box: Box,
  wanted: number,
  size: number,
): { crop: Float32Array; scaled: ScaledBox } {
  const scaled = scaledBox(image.width, image.height, box, wanted);
  const region = {
    x: scaled.left,
    y: scaled.top,
    width: scaled.right - scaled.left + 1,
    height: scaled.bottom - scaled.top + 1,
  };
  const crop = sample(image, boxToSize(region, size, size), size, size, 'border', false);
  // Upstream's crop is uint8 (cv2.resize of a uint8 image rounds).
  for (let i = 0; i < crop.length; i++) crop[i] = Math.round(crop[i]);
  return { crop, scaled };
}
