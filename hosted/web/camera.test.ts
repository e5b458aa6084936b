import { cameraErrorKey } from './camera';
import { translator } from './messages';

describe('camera errors become sentences the applicant can act on', () => {
  it.each([
    ['NotAllowedError', 'camera_NotAllowedError'],
    ['PermissionDeniedError', 'camera_NotAllowedError'],
    ['NotFoundError', 'camera_NotFoundError'],
    ['DevicesNotFoundError', 'camera_NotFoundError'],
    ['NotReadableError', 'camera_NotReadableError'],
    ['TrackStartError', 'camera_NotReadableError'],
    ['AbortError', 'camera_NotReadableError'],
    ['OverconstrainedError', 'camera_OverconstrainedError'],
    ['SecurityError', 'camera_SecurityError'],
    ['TypeError', 'camera_other'],
  ])('maps %s to %s', (name, key) => {
    expect(cameraErrorKey({ name })).toBe(key);
  });

  it('says every camera problem in English and in French, each offering the upload', () => {
    for (const locale of ['en', 'fr'] as const) {
      const t = translator(locale);
      const upload = locale === 'en' ? /upload a photo/i : /envoyez une photo/i;
      for (const name of [
        'NotAllowedError',
        'NotFoundError',
        'NotReadableError',
        'OverconstrainedError',
        'SecurityError',
      ]) {
        expect(t(cameraErrorKey({ name }))).toMatch(upload);
      }
    }
  });
});
