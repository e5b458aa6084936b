import { selfieAnswerOf } from './selfie-answer';

describe('the answer to a selfie upload', () => {
  it('asks for nothing when a face was found with room around it, whatever the verdict', () => {
    expect(selfieAnswerOf({ reason: 'SPOOF_DETECTED', retake_reason: null }, 2)).toEqual({
      face_found: true,
      retake: false,
      reason: null,
      attempts_left: 2,
    });
    expect(selfieAnswerOf({ reason: null, retake_reason: null }, 2)).toEqual({
      face_found: true,
      retake: false,
      reason: null,
      attempts_left: 2,
    });
  });

  it('asks for a retake when no face was found', () => {
    expect(selfieAnswerOf({ reason: 'FACE_NOT_DETECTED', retake_reason: null }, 1)).toEqual({
      face_found: false,
      retake: true,
      reason: 'FACE_NOT_DETECTED',
      attempts_left: 1,
    });
  });

  it('asks the applicant to move back when the face fills the frame, even if the check could not judge it', () => {
    expect(selfieAnswerOf({ reason: null, retake_reason: 'FACE_TOO_CLOSE' }, 2)).toEqual({
      face_found: true,
      retake: true,
      reason: 'FACE_TOO_CLOSE',
      attempts_left: 2,
    });
    expect(selfieAnswerOf({ reason: 'FACE_NOT_DETECTED', retake_reason: 'FACE_TOO_CLOSE' }, 2)).toEqual({
      face_found: true,
      retake: true,
      reason: 'FACE_TOO_CLOSE',
      attempts_left: 2,
    });
  });

  it('never reveals a reason once no attempt is left', () => {
    expect(selfieAnswerOf({ reason: null, retake_reason: 'FACE_TOO_CLOSE' }, 0)).toEqual({
      face_found: true,
      retake: false,
      reason: null,
      attempts_left: 0,
    });
    expect(selfieAnswerOf({ reason: 'FACE_NOT_DETECTED', retake_reason: null }, 0)).toEqual({
      face_found: false,
      retake: false,
      reason: null,
      attempts_left: 0,
    });
  });
});
