import { nameScore, tokenSimilarity } from './name-score';
import { nameTokens } from './name-tokens';

const score = (a: string, b: string) => nameScore(nameTokens(a), nameTokens(b));

describe('tokenSimilarity', () => {
  it('is 1 for equal tokens and 0 for unrelated ones', () => {
    expect(tokenSimilarity('hassan', 'hassan')).toBe(1);
    expect(tokenSimilarity('hassan', 'peters')).toBe(0);
  });

  it('forgives one edit, even early in the name where Jaro-Winkler is harsh', () => {
    expect(tokenSimilarity('naif', 'nayif')).toBeGreaterThanOrEqual(0.86);
    expect(tokenSimilarity('dqaz', 'diaz')).toBeGreaterThanOrEqual(0.86);
  });

  it('sees through a particle joined to the name ("ALFAWAZ" for "al-Fawaz")', () => {
    expect(tokenSimilarity('alfawaz', 'fawaz')).toBe(0.95);
    expect(tokenSimilarity('alfawaz', 'fawzi')).toBe(0); // only the exact rest counts
  });

  it('lets an initial stand for a name it starts', () => {
    expect(tokenSimilarity('j', 'john')).toBe(0.9);
    expect(tokenSimilarity('k', 'john')).toBe(0);
  });
});

describe('nameScore', () => {
  it('does not care about token order', () => {
    expect(score('ZAWAHIRI Ayman', 'Ayman al-Zawahiri')).toBe(1);
  });

  it('scores a dropped middle name high, but below the full name', () => {
    const dropped = score('Willeke De Bruijn', 'Willeke Liselotte De Bruijn');
    expect(dropped).toBeGreaterThan(0.86);
    expect(dropped).toBeLessThan(1);
  });

  it('matches initials only alongside a full token', () => {
    expect(score('J. Smith', 'John Smith')).toBeGreaterThan(0.86);
    expect(score('J. S.', 'John Smith')).toBe(0);
  });

  it('needs two aligned tokens: a shared first name alone is no match', () => {
    expect(score('Mohammed Peters', 'Mohammed Hassan')).toBe(0);
  });
});
