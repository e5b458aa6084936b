import type { CaptureSighting } from '../../ports/capture-fingerprints';
import { PERCEPTUAL_FRAMES, perceptualSample, reusedFrom } from './capture-reuse';

const copy = (index: number, session_id: string): CaptureSighting => ({
  kind: 'liveness',
  index,
  session_id,
  exact: false,
});

describe('which sightings of earlier captures amount to reuse', () => {
  it('counts a document photo, a selfie or one frame seen byte for byte, once per capture', () => {
    expect(
      reusedFrom(
        [
          { kind: 'document', index: 0, session_id: 'ses_a', exact: true },
          { kind: 'selfie', index: 9, session_id: 'ses_b', exact: false },
          { kind: 'selfie', index: 9, session_id: 'ses_a', exact: true },
          { kind: 'selfie', index: 9, session_id: 'ses_c', exact: false },
          { kind: 'liveness', index: 3, session_id: 'ses_b', exact: true },
          { kind: 'liveness', index: 4, session_id: 'ses_b', exact: true },
        ],
        8,
      ),
    ).toEqual([
      { kind: 'document', session_id: 'ses_a' },
      { kind: 'liveness', session_id: 'ses_b' },
      { kind: 'liveness', session_id: 'ses_b' },
      // Seen in three sessions: one capture, named after the byte-for-byte sighting.
      { kind: 'selfie', session_id: 'ses_a' },
    ]);
  });

  it("counts perceptual copies of frames only when half the session's frames copy one other session", () => {
    expect(reusedFrom([copy(1, 'ses_a'), copy(2, 'ses_a'), copy(3, 'ses_a')], 8)).toEqual([]);
    expect(reusedFrom([copy(1, 'ses_a'), copy(2, 'ses_a'), copy(3, 'ses_b'), copy(4, 'ses_b')], 8)).toEqual([]);
    expect(
      reusedFrom(
        [1, 2, 3, 4].map((i) => copy(i, 'ses_a')),
        8,
      ),
    ).toEqual(Array.from({ length: 4 }, () => ({ kind: 'liveness', session_id: 'ses_a' })));
    // The same frame copied twice from one session counts once.
    expect(reusedFrom([copy(1, 'ses_a'), copy(1, 'ses_a'), copy(2, 'ses_a'), copy(3, 'ses_a')], 8)).toEqual([]);
  });

  it('needs two copied frames at least, however short the sequence', () => {
    expect(reusedFrom([copy(0, 'ses_a')], 1)).toEqual([]);
    expect(reusedFrom([copy(0, 'ses_a'), copy(1, 'ses_a')], 2)).toHaveLength(2);
  });

  it('hashes every frame of a short sequence perceptually, and an even spread of a long one, the same places for the same count', () => {
    expect([...perceptualSample(5)]).toEqual([0, 1, 2, 3, 4]);
    const sixty = [...perceptualSample(60)];
    expect(sixty).toHaveLength(PERCEPTUAL_FRAMES);
    expect([sixty[0], sixty.at(-1)]).toEqual([0, 59]);
    expect(sixty.every((at, i) => i === 0 || at - sixty[i - 1] >= 8)).toBe(true);
    expect([...perceptualSample(60)]).toEqual(sixty);
  });
});
