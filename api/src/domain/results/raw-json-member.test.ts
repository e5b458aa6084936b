import { rawJsonMember } from './raw-json-member';

describe('rawJsonMember', () => {
  it('returns the exact text of a member, whitespace and number spelling included', () => {
    expect(rawJsonMember('{"a":1,"metadata": { "x" : 1.0 , "y":[1e3] } ,"b":2}', 'metadata')).toBe(
      '{ "x" : 1.0 , "y":[1e3] }',
    );
  });

  it('is not fooled by braces and quotes inside strings', () => {
    expect(rawJsonMember('{"metadata":{"s":"}\\"{]"},"z":"metadata"}', 'metadata')).toBe('{"s":"}\\"{]"}');
  });

  it('matches an escaped key and takes the last duplicate, as JSON.parse does', () => {
    expect(rawJsonMember('{"metadata":{"first":1},"meta\\u0064ata":{"second":2}}', 'metadata')).toBe('{"second":2}');
  });

  it('answers null when the member is absent', () => {
    expect(rawJsonMember('{"a":{"metadata":1}}', 'metadata')).toBeNull();
  });
});
