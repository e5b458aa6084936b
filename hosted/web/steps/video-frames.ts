import { encodeJpeg, MAX_FRAME_EDGE } from '../image-encode';

export interface RecordedFrames {
  frames: Blob[];
  timestamps: number[];
}

/** The contract accepts 8 to 60 frames; 5 per second (as the live recording) unless the video is too long for that. */
const FPS = 5;
const MIN_FRAMES = 8;
const MAX_FRAMES = 60;

function seek(video: HTMLVideoElement, seconds: number): Promise<void> {
  return new Promise((resolve) => {
    video.addEventListener('seeked', () => resolve(), { once: true });
    video.currentTime = seconds;
  });
}

/** Samples a recorded video (the camera app's, when the live camera is refused) at an even rate, in order. */
export async function framesFromVideoFile(file: File): Promise<RecordedFrames> {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  video.src = url;
  try {
    await new Promise<void>((resolve, reject) => {
      video.addEventListener('loadeddata', () => resolve(), { once: true });
      video.addEventListener('error', () => reject(new Error('unreadable video')), { once: true });
    });
    const duration = Number.isFinite(video.duration) ? video.duration : 0;
    const count = Math.max(MIN_FRAMES, Math.min(MAX_FRAMES, Math.floor(duration * FPS)));
    const frames: Blob[] = [];
    const timestamps: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = (duration * i) / count;
      await seek(video, at);
      frames.push(await encodeJpeg(video, MAX_FRAME_EDGE, 0.85));
      timestamps.push(Math.round(at * 1000));
    }
    return { frames, timestamps };
  } finally {
    URL.revokeObjectURL(url);
  }
}
