/**
 * The SVG written beside a decision run's JSON. The inference chart helper (results-chart.ts)
 * plots against batch size, which this run has none of, so the two small bar panels are drawn
 * directly.
 */
import type { LatencySummary } from '../../scripts/test-support/percentiles';
import { PROCESSES, type Summary } from './decision-summary';

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Left: p50 (dark) and p99 (light) per step and check, targets in red. Right: CPU per verification per process. */
export function renderSvg(s: Summary, subtitle: string): string {
  const bars: Array<{ label: string; l: LatencySummary; target?: number }> = [
    { label: 'document read at upload', l: s.document_read, target: 1500 },
    { label: 'liveness upload', l: s.liveness_upload },
    { label: 'selfie upload (antispoof, liveness, face match)', l: s.selfie_upload },
    { label: 'submit → decided', l: s.submit_to_decided_at_server, target: 1000 },
    { label: 'check: document', l: s.checks.document },
    { label: 'check: antispoof', l: s.checks.antispoof },
    { label: 'check: liveness', l: s.checks.liveness },
    { label: 'check: face_match', l: s.checks.face_match },
  ];
  const W = 520,
    rowH = 30,
    top = 50,
    left = 170,
    right = 30;
  const H = top + bars.length * rowH + 50;
  const max = Math.max(1500, ...bars.map((b) => b.l.p99_ms ?? 0)) * 1.05;
  const x = (v: number) => left + (v / max) * (W - left - right);
  const step = [250, 500, 1000, 2000, 5000, 10_000, 20_000].find((c) => max / c <= 8) ?? 50_000;
  const parts: string[] = [
    `<text x="${W / 2}" y="22" text-anchor="middle" font-weight="bold">Latency p50 (dark) and p99 (light), all passes pooled, ms</text>`,
  ];
  for (let t = 0; t <= max; t += step)
    parts.push(
      `<line x1="${x(t)}" x2="${x(t)}" y1="${top - 8}" y2="${top + bars.length * rowH}" stroke="#e5e5e5"/><text x="${x(t)}" y="${top + bars.length * rowH + 16}" text-anchor="middle">${t}</text>`,
    );
  bars.forEach((b, i) => {
    const y = top + i * rowH;
    parts.push(`<text x="${left - 8}" y="${y + 15}" text-anchor="end">${esc(b.label)}</text>`);
    if (b.l.p99_ms !== null)
      parts.push(
        `<rect x="${left}" y="${y + 3}" width="${(x(b.l.p99_ms) - left).toFixed(1)}" height="18" fill="#9ecae1"/><text x="${x(b.l.p99_ms) + 4}" y="${y + 16}" fill="#555">${Math.round(b.l.p99_ms)}</text>`,
      );
    if (b.l.p50_ms !== null)
      parts.push(
        `<rect x="${left}" y="${y + 7}" width="${(x(b.l.p50_ms) - left).toFixed(1)}" height="10" fill="#08519c"/>`,
      );
    if (b.target)
      parts.push(
        `<line x1="${x(b.target)}" x2="${x(b.target)}" y1="${y}" y2="${y + 24}" stroke="#d62728" stroke-width="2"/>`,
      );
  });
  parts.push(
    `<text x="${(left + W) / 2}" y="${top + bars.length * rowH + 34}" text-anchor="middle">ms (red: target for p99)</text>`,
  );

  const cpu = PROCESSES.map((p) => ({
    p,
    v: s.cpu_ms_per_verification[p] ?? 0,
    own: s.cpu_ms_per_verification_without_polls[p] ?? 0,
  }));
  const cmax = Math.max(1, ...cpu.map((c) => c.v)) * 1.15;
  const cx = (v: number) => 110 + (v / cmax) * (W - 110 - right);
  const right2: string[] = [
    `<g transform="translate(${W},0)">`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-weight="bold">CPU per verification, ms (total ${Math.round(s.cpu_ms_per_verification_without_polls.total ?? 0)} less polls)</text>`,
  ];
  cpu.forEach((c, i) => {
    const y = top + i * rowH;
    right2.push(
      `<text x="102" y="${y + 15}" text-anchor="end">${c.p}</text><rect x="110" y="${y + 3}" width="${(cx(c.v) - 110).toFixed(1)}" height="18" fill="#c7e9c0"/><rect x="110" y="${y + 3}" width="${(cx(c.own) - 110).toFixed(1)}" height="18" fill="#31a354"/><text x="${cx(c.v) + 4}" y="${y + 16}">${Math.round(c.v)}</text>`,
    );
  });
  right2.push(
    `<text x="${W / 2}" y="${top + PROCESSES.length * rowH + 20}" text-anchor="middle" fill="#555">dark: less the benchmark's status polls; light: as measured</text>`,
    `<text x="${W / 2}" y="${top + PROCESSES.length * rowH + 38}" text-anchor="middle" fill="#555">verifications per minute: ${s.verifications_per_minute ?? '—'}</text>`,
    '</g>',
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 2}" height="${H + 20}" font-family="sans-serif" font-size="11">`,
    '<rect width="100%" height="100%" fill="white"/>',
    ...parts,
    ...right2,
    `<text x="20" y="${H + 10}" fill="#555">${esc(subtitle)}</text>`,
    '</svg>',
  ].join('\n');
}
