/**
 * A hand-written SVG of the benchmark: p50 latency (left) and throughput (right) against batch
 * size, one colour per model; throughput shows the service (solid) over bare onnxruntime (dashed).
 * Both axes are logarithmic because models differ by orders of magnitude.
 */
export interface ChartSeries {
  model: string;
  points: Array<{
    batch: number;
    latencyMs: number | null;
    serviceRowsPerS: number | null;
    bareRowsPerS: number | null;
  }>;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];
const W = 460,
  H = 320,
  M = { left: 60, right: 16, top: 36, bottom: 44 };

function logScale(values: number[], size: number, invert: boolean) {
  const lo = Math.log10(Math.min(...values)),
    hi = Math.log10(Math.max(...values));
  const min = Math.floor(lo),
    max = Math.max(Math.ceil(hi), min + 1);
  const at = (v: number) => ((Math.log10(v) - min) / (max - min)) * size;
  return {
    at: (v: number) => (invert ? size - at(v) : at(v)),
    ticks: Array.from({ length: max - min + 1 }, (_, i) => 10 ** (min + i)),
  };
}

const fmt = (v: number) => (v >= 1000 ? `${v / 1000}k` : String(v));

function panel(
  series: ChartSeries[],
  title: string,
  yLabel: string,
  pick: Array<{ key: 'latencyMs' | 'serviceRowsPerS' | 'bareRowsPerS'; dash: string }>,
  offsetX: number,
): string {
  const innerW = W - M.left - M.right,
    innerH = H - M.top - M.bottom;
  const batches = [...new Set(series.flatMap((s) => s.points.map((p) => p.batch)))].sort((a, b) => a - b);
  const values = series
    .flatMap((s) => s.points.flatMap((p) => pick.map(({ key }) => p[key])))
    .filter((v): v is number => v !== null && v > 0);
  if (values.length === 0 || batches.length === 0) return '';
  const x = (b: number) =>
    M.left +
    (batches.length === 1
      ? innerW / 2
      : (Math.log2(b / batches[0]) / Math.log2(batches.at(-1)! / batches[0])) * innerW);
  const y = logScale(values, innerH, true);
  const parts = [
    `<g transform="translate(${offsetX},0)">`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-weight="bold">${title}</text>`,
  ];
  for (const t of y.ticks) {
    const ty = M.top + y.at(t);
    parts.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${ty}" y2="${ty}" stroke="#ddd"/><text x="${M.left - 6}" y="${ty + 4}" text-anchor="end">${fmt(t)}</text>`,
    );
  }
  for (const b of batches) parts.push(`<text x="${x(b)}" y="${H - M.bottom + 16}" text-anchor="middle">${b}</text>`);
  parts.push(`<text x="${W / 2}" y="${H - 8}" text-anchor="middle">batch size</text>`);
  parts.push(`<text transform="translate(14,${M.top + innerH / 2}) rotate(-90)" text-anchor="middle">${yLabel}</text>`);
  series.forEach((s, i) => {
    for (const { key, dash } of pick) {
      const pts = s.points
        .filter((p) => p[key] !== null && p[key] > 0)
        .map((p) => `${x(p.batch).toFixed(1)},${(M.top + y.at(p[key]!)).toFixed(1)}`);
      if (pts.length > 0)
        parts.push(
          `<polyline fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2" ${dash ? `stroke-dasharray="${dash}"` : ''} points="${pts.join(' ')}"/>`,
        );
    }
  });
  parts.push('</g>');
  return parts.join('\n');
}

export function renderChart(series: ChartSeries[], subtitle: string): string {
  const legend = series.map(
    (s, i) =>
      `<g transform="translate(${20 + (i % 4) * 225},${H + 18 + Math.floor(i / 4) * 18})"><rect width="14" height="4" y="-4" fill="${COLOURS[i % COLOURS.length]}"/><text x="20">${s.model}</text></g>`,
  );
  const height = H + 30 + Math.ceil(series.length / 4) * 18 + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 2}" height="${height}" font-family="sans-serif" font-size="11">`,
    '<rect width="100%" height="100%" fill="white"/>',
    panel(series, 'Service p50 latency per request', 'ms (log)', [{ key: 'latencyMs', dash: '' }], 0),
    panel(
      series,
      'Throughput: service (solid) vs bare ORT (dashed)',
      'rows/s (log)',
      [
        { key: 'serviceRowsPerS', dash: '' },
        { key: 'bareRowsPerS', dash: '5,4' },
      ],
      W,
    ),
    ...legend,
    `<text x="20" y="${height - 8}" fill="#555">${subtitle.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`,
    '</svg>',
  ].join('\n');
}
