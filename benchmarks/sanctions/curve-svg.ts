interface CurvePoint {
  threshold: number;
  recall: number;
  false_match_rate: number;
  hard_negative_false_match_rate: number;
}

/** Recall and false-match rates against the line, as a small standalone SVG. */
export function curveSvg(curve: CurvePoint[], line: number): string {
  const width = 640;
  const height = 360;
  const pad = 50;
  const x = (t: number) => pad + ((t - 0.7) / 0.3) * (width - 2 * pad);
  const y = (v: number) => height - pad - v * (height - 2 * pad);
  const path = (key: keyof CurvePoint) =>
    curve.map((p, i) => `${i ? 'L' : 'M'}${x(p.threshold).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ');
  const series: Array<[keyof CurvePoint, string, string]> = [
    ['recall', '#1f77b4', 'recall (positives)'],
    ['false_match_rate', '#d62728', 'false matches (faker negatives)'],
    ['hard_negative_false_match_rate', '#ff7f0e', 'false matches (recombined list names)'],
  ];
  const ticks = [0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1]
    .map((t) => `<text x="${x(t)}" y="${height - pad + 18}" font-size="11" text-anchor="middle">${t.toFixed(2)}</text>`)
    .join('');
  const yTicks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (v) =>
        `<text x="${pad - 8}" y="${y(v) + 4}" font-size="11" text-anchor="end">${v * 100}%</text><line x1="${pad}" x2="${width - pad}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/>`,
    )
    .join('');
  const legend = series
    .map(
      ([, color, label], i) =>
        `<text x="${pad + 10}" y="${pad + 14 + i * 16}" font-size="12" fill="${color}">${label}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>${yTicks}${ticks}
<line x1="${x(line)}" x2="${x(line)}" y1="${pad}" y2="${height - pad}" stroke="#888" stroke-dasharray="4"/>
<text x="${x(line) + 4}" y="${height - pad - 6}" font-size="11" fill="#555">line ${line}</text>
${series.map(([key, color]) => `<path d="${path(key)}" fill="none" stroke="${color}" stroke-width="2"/>`).join('\n')}
${legend}
<text x="${width / 2}" y="${height - 10}" font-size="12" text-anchor="middle">decision line (score)</text>
</svg>
`;
}
