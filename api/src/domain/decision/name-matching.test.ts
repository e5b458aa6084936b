import { namesMatch } from './name-matching';

describe('the name cross-check', () => {
  it('ignores case, punctuation and the order of the names', () => {
    expect(namesMatch('Jean-Pierre Martin', 'MARTIN JEAN PIERRE')).toBe(true);
    expect(namesMatch("d'Arcy, Anne", 'ANNE D ARCY')).toBe(true);
  });

  it('matches an MRZ transliteration of accented names', () => {
    expect(namesMatch('José Núñez', 'JOSE NUNEZ')).toBe(true);
    expect(namesMatch('Jürgen Müller', 'JURGEN MULLER')).toBe(true);
    expect(namesMatch('Jürgen Müller', 'JUERGEN MUELLER')).toBe(true);
    expect(namesMatch('Åsa Ødegård', 'AASA OEDEGAARD')).toBe(true);
  });

  it('treats MRZ fillers as separators', () => {
    expect(namesMatch('Anna Maria Berg', 'BERG<<ANNA<MARIA')).toBe(true);
  });

  it('refuses another person, a missing name or an extra one', () => {
    expect(namesMatch('Jeanne Dupont', 'TOMAS OESTERGAARD')).toBe(false);
    expect(namesMatch('Anna Maria Berg', 'ANNA BERG')).toBe(false);
    expect(namesMatch('Anna Berg', 'ANNA BERGMAN')).toBe(false);
  });
});
