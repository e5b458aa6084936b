import { nameTokens } from './name-tokens';

describe('nameTokens', () => {
  it('ignores case, diacritics and punctuation', () => {
    expect(nameTokens('José MARÍA Fernández-Ruiz')).toEqual(['jose', 'maria', 'fernandez', 'ruiz']);
  });

  it('transliterates non-Latin scripts', () => {
    expect(nameTokens('Владимир Путин')).toEqual(['vladimir', 'putin']);
    expect(nameTokens('習近平')).toEqual(['xi', 'jin', 'ping']);
  });

  it('drops honorifics and particles such as al, bin and van der', () => {
    expect(nameTokens('Dr. Ayman al-Zawahiri')).toEqual(['ayman', 'zawahiri']);
    expect(nameTokens('Shaykh Umar bin Abd AL RAHMAN')).toEqual(['umar', 'abd', 'rahman']);
    expect(nameTokens('Pieter van der Berg')).toEqual(['pieter', 'berg']);
  });

  it('joins apostrophes instead of splitting on them', () => {
    expect(nameTokens("Gama'at Ma’ruf")).toEqual(['gamaat', 'maruf']);
  });

  it('keeps particles when nothing else is left', () => {
    expect(nameTokens('De La')).toEqual(['de', 'la']);
  });
});
