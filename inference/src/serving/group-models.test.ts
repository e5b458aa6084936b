import { groupModels } from './model-host';

describe('groupModels', () => {
  const models = ['a', 'b', 'c', 'd', 'e'];

  it('puts every model in one executor process by default setting 1', () => {
    expect(groupModels(models, 1)).toEqual([models]);
  });

  it('gives each model its own process with per-model', () => {
    expect(groupModels(models, 'per-model')).toEqual(models.map((m) => [m]));
  });

  it('spreads models round-robin over N processes, never more processes than models', () => {
    expect(groupModels(models, 2)).toEqual([
      ['a', 'c', 'e'],
      ['b', 'd'],
    ]);
    expect(groupModels(['a'], 4)).toEqual([['a']]);
  });
});
