import { errorChartSvg } from './charts/error-chart-svg';
import type { DecisionLine, ScoredTrial } from './eval-task';
import { describeSummary, summariseTrials } from './summarise-trials';

const trials: ScoredTrial[] = [
  { id: 'g1', score: 0.9, genuine: true, kind: 'augmented' },
  { id: 'g2', score: 0.75, genuine: true, kind: 'augmented' },
  { id: 'g3', score: null, genuine: true, kind: 'no face' },
  { id: 'i1', score: 0.72, genuine: false, kind: 'different-person' },
  { id: 'i2', score: 0.3, genuine: false, kind: 'different-person' },
];
const decision: DecisionLine = {
  score: 'cosine_similarity',
  threshold: 0.7,
  comparison: 'gte',
  configuredIn: 'models/x/1/config.json thresholds.match_similarity',
};

describe('summarising an evaluation at the configured line', () => {
  const summary = summariseTrials(trials, decision);

  it('counts false accepts and false rejects, an unscored genuine trial being a reject', () => {
    expect(summary.atDecision).toMatchObject({ falseAccepts: 1, falseRejects: 1, fmr: 0.5, fnmr: 1 / 3 });
    expect(summary.counts).toEqual({ genuine: 3, nonGenuine: 2, unscored: 1 });
  });

  it('breaks results down by kind with their score ranges', () => {
    expect(summary.byKind['different-person']).toEqual({ trials: 2, passed: 1, min: 0.3, max: 0.72 });
    expect(summary.byKind['no face']).toEqual({ trials: 1, passed: 0, min: null, max: null });
  });

  it('prints where the line is configured and the error rates in the task words', () => {
    const lines = describeSummary(summary, {
      falseAccept: 'spoof accepted',
      falseReject: 'live rejected',
    }).join('\n');
    expect(lines).toContain('models/x/1/config.json thresholds.match_similarity');
    expect(lines).toContain('FMR  (spoof accepted) = 50.00% (1/2)');
    expect(lines).toContain('FNMR (live rejected) = 33.33% (1/3)');
  });

  it('draws the score, ROC and DET panels with the configured line in one SVG', () => {
    const svg = errorChartSvg({
      title: 't',
      trials,
      curve: summary.curve,
      decision,
      atDecision: summary.atDecision,
      eer: summary.equalError,
    });
    expect(svg.startsWith('<svg')).toBe(true);
    for (const text of ['Scores by label', 'ROC', 'DET', 'configured 0.7']) expect(svg).toContain(text);
    expect(svg).not.toContain('NaN');
  });
});
