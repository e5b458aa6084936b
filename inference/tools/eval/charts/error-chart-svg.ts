/**
 * One SVG with three panels: the score distributions with the decision line (most telling on
 * small sets), the ROC curve (FMR on a log axis) and the DET curve (both axes on the normal-deviate
 * scale, as ISO/IEC 19795-1 draws it).
 */
import type { DecisionLine, ScoredTrial } from '../eval-task';
import type { EqualErrorPoint, ErrorRates } from '../metrics/error-rates';
import { probit } from '../metrics/probit';
import { escapeXml, frame, marker, polyline, type Panel } from './svg-panel';

export interface ChartInput {
  title: string;
  trials: ScoredTrial[];
  curve: ErrorRates[];
  decision: DecisionLine;
  atDecision: ErrorRates;
  eer: EqualErrorPoint;
}

const floorRate = 1e-4;
const clampRate = (r: number) => Math.min(1 - floorRate, Math.max(floorRate, r));

export function errorChartSvg(input: ChartInput): string {
  const body = [scorePanel(input), rocPanel(input), detPanel(input)].join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1260" height="420" font-family="sans-serif">
<rect width="1260" height="420" fill="white"/>
<text x="630" y="22" text-anchor="middle" font-size="16">${escapeXml(input.title)}</text>
${body}
</svg>
`;
}

function scorePanel({ trials, decision, eer }: ChartInput): string {
  const scores = trials.map((t) => t.score).filter((s): s is number => s !== null);
  const low = Math.min(decision.threshold, ...scores);
  const high = Math.max(decision.threshold, ...scores);
  const pad = (high - low) * 0.05 || 0.05;
  const panel: Panel = {
    x: 60,
    y: 60,
    width: 340,
    height: 290,
    title: 'Scores by label',
    xLabel: decision.score,
    yLabel: 'trials (jittered)',
    xRange: [low - pad, high + pad],
    yRange: [0, 2],
    xTicks: ticks(low - pad, high + pad),
    yTicks: [
      [0.5, 'non-genuine'],
      [1.5, 'genuine'],
    ],
  };
  const dots = trials
    .filter((t) => t.score !== null)
    .map((t, i) => {
      const jitter = ((i * 0.6180339) % 1) * 0.7 - 0.35;
      const row = t.genuine ? 1.5 : 0.5;
      const colour = t.genuine ? '#1f77b4' : '#d62728';
      const fx = (t.score! - panel.xRange[0]) / (panel.xRange[1] - panel.xRange[0]);
      const px = panel.x + fx * panel.width;
      const py = panel.y + panel.height - ((row + jitter) / 2) * panel.height;
      return `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="2.2" fill="${colour}" fill-opacity="0.55"/>`;
    });
  const line = (value: number, colour: string, label: string, dy: number) => {
    const fx = (value - panel.xRange[0]) / (panel.xRange[1] - panel.xRange[0]);
    const px = panel.x + fx * panel.width;
    return `<line x1="${px}" y1="${panel.y}" x2="${px}" y2="${panel.y + panel.height}" stroke="${colour}" stroke-dasharray="5,3" stroke-width="2"/><text x="${px + 4}" y="${panel.y + 14 + dy}" font-size="11" fill="${colour}">${escapeXml(label)}</text>`;
  };
  return [
    frame(panel),
    ...dots,
    line(decision.threshold, '#2ca02c', `configured ${decision.threshold}`, 0),
    line(eer.threshold, '#9467bd', `EER point ${eer.threshold.toFixed(3)}`, 14),
  ].join('\n');
}

function rocPanel({ curve, atDecision, eer }: ChartInput): string {
  const log = (r: number) => Math.log10(clampRate(r));
  const panel: Panel = {
    x: 480,
    y: 60,
    width: 320,
    height: 290,
    title: 'ROC',
    xLabel: 'false match rate (log)',
    yLabel: '1 - false non-match rate',
    xRange: [-4, 0],
    yRange: [0, 1],
    xTicks: [
      [-4, '1e-4'],
      [-3, '1e-3'],
      [-2, '1e-2'],
      [-1, '0.1'],
      [0, '1'],
    ],
    yTicks: ticks(0, 1),
  };
  const points = curve.map((p) => [log(p.fmr), 1 - p.fnmr] as [number, number]);
  return [
    frame(panel),
    polyline(panel, points, '#1f77b4'),
    marker(panel, log(atDecision.fmr), 1 - atDecision.fnmr, '#2ca02c', 'configured line'),
    marker(panel, log(eer.fmr), 1 - eer.fnmr, '#9467bd', 'EER'),
  ].join('\n');
}

function detPanel({ curve, atDecision, eer }: ChartInput): string {
  const deviate = (r: number) => probit(clampRate(r));
  const rates: Array<[number, string]> = [
    [1e-4, '0.01%'],
    [1e-3, '0.1%'],
    [1e-2, '1%'],
    [0.05, '5%'],
    [0.2, '20%'],
    [0.5, '50%'],
  ];
  const scaled = rates.map(([r, label]) => [deviate(r), label] as [number, string]);
  const panel: Panel = {
    x: 880,
    y: 60,
    width: 320,
    height: 290,
    title: 'DET',
    xLabel: 'false match rate',
    yLabel: 'false non-match rate',
    xRange: [deviate(floorRate), deviate(0.6)],
    yRange: [deviate(floorRate), deviate(0.6)],
    xTicks: scaled,
    yTicks: scaled,
  };
  const points = curve.map((p) => [deviate(p.fmr), deviate(p.fnmr)] as [number, number]);
  return [
    frame(panel),
    polyline(panel, points, '#d62728'),
    marker(panel, deviate(atDecision.fmr), deviate(atDecision.fnmr), '#2ca02c', 'configured line'),
    marker(panel, deviate(eer.fmr), deviate(eer.fnmr), '#9467bd', 'EER'),
    `<text x="${panel.x + 4}" y="${panel.y + panel.height - 6}" font-size="10" fill="#666">rates of 0 drawn at 0.01%</text>`,
  ].join('\n');
}

function ticks(low: number, high: number): Array<[number, string]> {
  const step = niceStep((high - low) / 5);
  const out: Array<[number, string]> = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step)
    out.push([v, Number(v.toFixed(3)).toString()]);
  return out;
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const unit = raw / power;
  return (unit < 1.5 ? 1 : unit < 3.5 ? 2 : unit < 7.5 ? 5 : 10) * power;
}
