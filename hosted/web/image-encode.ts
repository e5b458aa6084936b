/** The longest edge sent for a document or selfie; enough for the MRZ, small on a phone's uplink. */
export const MAX_PHOTO_EDGE = 1600;
/** Liveness frames: the contract caps them at 2 megapixels and 1 MiB each; the face models work far below this. */
export const MAX_FRAME_EDGE = 480;

type Source = HTMLVideoElement | ImageBitmap | HTMLImageElement;

function sizeOf(source: Source): { width: number; height: number } {
  if (source instanceof HTMLVideoElement) return { width: source.videoWidth, height: source.videoHeight };
  if (source instanceof HTMLImageElement) return { width: source.naturalWidth, height: source.naturalHeight };
  return { width: source.width, height: source.height };
}

/** Draws `source` scaled down to at most `maxEdge` on its long edge and encodes it as JPEG. */
export function encodeJpeg(source: Source, maxEdge: number, quality = 0.9): Promise<Blob> {
  const { width, height } = sizeOf(source);
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('no 2D canvas'));
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('encode failed'))), 'image/jpeg', quality),
  );
}

/** A chosen file (the camera app's photo, or a gallery image) decoded with its EXIF orientation applied. */
export async function encodeFile(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    return await encodeJpeg(bitmap, MAX_PHOTO_EDGE);
  } finally {
    bitmap.close();
  }
}
