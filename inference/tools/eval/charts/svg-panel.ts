/** Minimal SVG building blocks: one panel with axes, ticks and polylines, no dependencies. */
export interface Panel {
  x: number;
  y: number;
  width: number;
  height: number;
  title: string;
  xLabel: string;
  yLabel: string;
  xRange: [number, number];
  yRange: [number, number];
  xTicks: Array<[number, string]>;
  yTicks: Array<[number, string]>;
}

export const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function toPixel(panel: Panel, vx: number, vy: number): [number, number] {
  const fx = (vx - panel.xRange[0]) / (panel.xRange[1] - panel.xRange[0]);
  const fy = (vy - panel.yRange[0]) / (panel.yRange[1] - panel.yRange[0]);
  const clamp = (f: number) => Math.max(0, Math.min(1, f));
  return [panel.x + clamp(fx) * panel.width, panel.y + panel.height - clamp(fy) * panel.height];
}

export function frame(panel: Panel): string {
  const parts = [
    `<rect x="${panel.x}" y="${panel.y}" width="${panel.width}" height="${panel.height}" fill="none" stroke="#333"/>`,
    `<text x="${panel.x + panel.width / 2}" y="${panel.y - 10}" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(panel.title)}</text>`,
    `<text x="${panel.x + panel.width / 2}" y="${panel.y + panel.height + 34}" text-anchor="middle" font-size="12">${escapeXml(panel.xLabel)}</text>`,
    `<text transform="translate(${panel.x - 42},${panel.y + panel.height / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escapeXml(panel.yLabel)}</text>`,
  ];
  for (const [value, label] of panel.xTicks) {
    const [px] = toPixel(panel, value, panel.yRange[0]);
    parts.push(`<line x1="${px}" y1="${panel.y}" x2="${px}" y2="${panel.y + panel.height}" stroke="#eee"/>`);
    parts.push(
      `<text x="${px}" y="${panel.y + panel.height + 16}" text-anchor="middle" font-size="10">${escapeXml(label)}</text>`,
    );
  }
  for (const [value, label] of panel.yTicks) {
    const [, py] = toPixel(panel, panel.xRange[0], value);
    parts.push(`<line x1="${panel.x}" y1="${py}" x2="${panel.x + panel.width}" y2="${py}" stroke="#eee"/>`);
    parts.push(`<text x="${panel.x - 6}" y="${py + 3}" text-anchor="end" font-size="10">${escapeXml(label)}</text>`);
  }
  return parts.join('\n');
}

export function polyline(panel: Panel, points: Array<[number, number]>, colour: string, width = 2): string {
  const coords = points
    .map(([vx, vy]) =>
      toPixel(panel, vx, vy)
        .map((v) => v.toFixed(1))
        .join(','),
    )
    .join(' ');
  return `<polyline points="${coords}" fill="none" stroke="${colour}" stroke-width="${width}"/>`;
}

export function marker(panel: Panel, vx: number, vy: number, colour: string, label: string): string {
  const [px, py] = toPixel(panel, vx, vy);
  return `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="5" fill="${colour}"/><text x="${(px + 8).toFixed(1)}" y="${(py - 6).toFixed(1)}" font-size="11" fill="${colour}">${escapeXml(label)}</text>`;
}
