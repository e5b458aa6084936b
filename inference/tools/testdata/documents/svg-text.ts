/** Small SVG builders for the visual zone of synthetic documents. */
export const xml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const FONT = 'DejaVu Sans, Verdana, sans-serif';

export function text(
  x: number,
  y: number,
  value: string,
  size: number,
  options: { weight?: string; fill?: string } = {},
): string {
  return `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" font-weight="${options.weight ?? 'normal'}" fill="${options.fill ?? '#1b1b1b'}">${xml(value)}</text>`;
}

/** A printed field: small grey bilingual label above its value. */
export function labelled(x: number, y: number, label: string, value: string, valueSize = 20): string {
  return text(x, y, label, 11, { fill: '#55606b' }) + text(x, y + valueSize + 4, value, valueSize, { weight: 'bold' });
}

/** Fine wavy lines like a security print; seeded so every run draws the same pattern. */
export function guilloche(width: number, height: number, random: () => number, colour: string): string {
  const paths: string[] = [];
  const amplitude = 6 + random() * 10;
  const period = 60 + random() * 80;
  for (let row = -1; row < height / 14 + 1; row++) {
    const phase = random() * Math.PI * 2;
    const points: string[] = [];
    for (let x = 0; x <= width; x += 10)
      points.push(`${x},${(row * 14 + amplitude * Math.sin((x / period) * Math.PI * 2 + phase)).toFixed(1)}`);
    paths.push(
      `<polyline points="${points.join(' ')}" fill="none" stroke="${colour}" stroke-width="0.8" opacity="0.35"/>`,
    );
  }
  return paths.join('');
}

export function svgDocument(width: number, height: number, body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`,
  );
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** Dates as printed in visual zones: "12 MAR 1985" on passports, "12.03.1985" on cards. */
export function printedDate(iso: string, style: 'passport' | 'card'): string {
  const [y, m, d] = iso.split('-');
  return style === 'passport' ? `${d} ${MONTHS[Number(m) - 1]} ${y}` : `${d}.${m}.${y}`;
}
