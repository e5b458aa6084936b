import type { MessageKey } from './messages';

export type Facing = 'environment' | 'user';

export class CameraError extends Error {
  constructor(readonly messageKey: MessageKey) {
    super(messageKey);
  }
}

const KNOWN_ERRORS = ['NotAllowedError', 'NotFoundError', 'NotReadableError', 'OverconstrainedError', 'SecurityError'];

/** Maps every getUserMedia failure to a sentence the applicant can act on. */
export function cameraErrorKey(error: unknown): MessageKey {
  const name = (error as { name?: string })?.name ?? '';
  if (name === 'PermissionDeniedError') return 'camera_NotAllowedError';
  if (name === 'DevicesNotFoundError') return 'camera_NotFoundError';
  if (name === 'TrackStartError' || name === 'AbortError') return 'camera_NotReadableError';
  return KNOWN_ERRORS.includes(name) ? (`camera_${name}` as MessageKey) : 'camera_other';
}

/**
 * Opens the camera facing `facing` at the best resolution the device offers up to 1920 px. Call it
 * from a user gesture: iOS Safari and some Android browsers refuse otherwise.
 */
export async function openCamera(video: HTMLVideoElement, facing: Facing): Promise<MediaStream> {
  // Browsers hide the camera from pages not served over HTTPS (a LAN address over plain http, say).
  if (!window.isSecureContext) throw new CameraError('camera_SecurityError');
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraError('camera_unsupported');
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: {
        facingMode: { ideal: facing },
        width: { ideal: 1920, max: 1920 },
        height: { ideal: 1080, max: 1920 },
      },
    });
  } catch (error) {
    throw new CameraError(cameraErrorKey(error));
  }
  // iOS Safari plays inline only with both set, and needs them before srcObject.
  video.muted = true;
  video.playsInline = true;
  video.setAttribute('playsinline', '');
  video.setAttribute('muted', '');
  video.srcObject = stream;
  await video.play().catch(() => undefined);
  await waitForFrame(video);
  return stream;
}

function waitForFrame(video: HTMLVideoElement): Promise<void> {
  if (video.readyState >= 2 && video.videoWidth) return Promise.resolve();
  return new Promise((resolve) => video.addEventListener('loadeddata', () => resolve(), { once: true }));
}

export function stopCamera(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}
