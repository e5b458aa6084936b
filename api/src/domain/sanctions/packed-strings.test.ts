import { PackedStrings } from './packed-strings';

describe('PackedStrings', () => {
  it('gives back each pushed string by its index, empty ones included', () => {
    const packed = new PackedStrings();
    const indexes = ['Ayman AL-ZAWAHIRI', '', 'Олег Воронцев'].map((value) => packed.push(value));
    packed.freeze();
    expect(indexes.map((index) => packed.get(index))).toEqual(['Ayman AL-ZAWAHIRI', '', 'Олег Воронцев']);
  });
});
