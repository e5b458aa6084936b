/**
 * APCER per attack species and BPCER on the live controls, per signal, with the sample count and
 * a 95 % upper bound (Wilson) behind each, as ISO/IEC 30107-3 reports them; and a bar chart.
 */
import { escapeXml } from '../charts/svg-panel';

export interface PadOutcome {
  id: string;
  kind: 'still' | 'sequence';
  species: string;
  live: boolean;
  /** No face was found: counted as refused by every signal, and listed. */
  noFace: boolean;
  /**
   * The check asked for a retake (the face fills the frame: move back) instead of judging: a
   * failure to acquire, left out of APCER and BPCER for the fused verdict and counted apart.
   */
  retake?: boolean;
  parallax?: number | null;
  /** Signal name → whether that signal alone let the presentation through. */
  accepted: Record<string, boolean>;
}

export interface PadRate {
  kind: 'still' | 'sequence';
  signal: string;
  species: string;
  live: boolean;
  samples: number;
  /** Attacks accepted (APCER) or live refused (BPCER). */
  errors: number;
  rate: number;
  upper95: number;
  noFace: number;
  /** Failures to acquire (retakes asked), not in `samples`. */
  retakes: number;
}

/** Upper end of the Wilson score interval at 95 %: what `errors` of `n` still allows. */
export function wilsonUpper(errors: number, n: number): number {
  if (!n) return 1;
  const z = 1.96;
  const p = errors / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return Math.min(1, (centre + spread) / (1 + (z * z) / n));
}

/** P(X <= k) for X ~ Binomial(n, p), summed in log space so n in the thousands stays exact enough. */
function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  let logTerm = n * Math.log(1 - p);
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i) + Math.log(p / (1 - p));
    sum += Math.exp(logTerm);
  }
  return Math.min(1, sum);
}

/** The p in [0, 1] where a decreasing function of p crosses `level`, by bisection. */
function solveDecreasing(f: (p: number) => number, level: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > level) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The Clopper-Pearson ("exact") 95 % interval for `errors` of `n`: conservative at small counts,
 * where 0 of 20 still allows 16.8 %. [0, 1] when n is 0.
 */
export function clopperPearson(errors: number, n: number): { lower: number; upper: number } {
  if (!n) return { lower: 0, upper: 1 };
  const lower = errors === 0 ? 0 : solveDecreasing((p) => binomialCdf(errors - 1, n, p), 0.975);
  const upper = errors === n ? 1 : solveDecreasing((p) => binomialCdf(errors, n, p), 0.025);
  return { lower, upper };
}

/** The model's own score is judged even when the check asks for a retake (it is what the model does on that crop). */
export const modelSignal = 'PAD model (image)';

export function tallyRates(outcomes: PadOutcome[]): PadRate[] {
  const groups = new Map<string, PadRate>();
  for (const o of outcomes) {
    for (const [signal, accepted] of Object.entries(o.accepted)) {
      const key = `${o.kind}|${signal}|${o.species}`;
      const rate = groups.get(key) ?? {
        kind: o.kind,
        signal,
        species: o.species,
        live: o.live,
        samples: 0,
        errors: 0,
        rate: 0,
        upper95: 1,
        noFace: 0,
        retakes: 0,
      };
      if (o.retake && signal !== modelSignal) {
        rate.retakes += 1;
        groups.set(key, rate);
        continue;
      }
      rate.samples += 1;
      rate.errors += o.live ? (accepted ? 0 : 1) : accepted ? 1 : 0;
      rate.noFace += o.noFace ? 1 : 0;
      groups.set(key, rate);
    }
  }
  return [...groups.values()].map((r) => ({
    ...r,
    rate: r.samples ? r.errors / r.samples : 0,
    upper95: wilsonUpper(r.errors, r.samples),
  }));
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function describePadRates(rates: PadRate[], context: { padLine: number; sample?: number }): string[] {
  const lines = [
    `PAD on the project's simulated attack set${context.sample ? ` (first ${context.sample} per species only)` : ''}; PAD model line ${context.padLine.toFixed(3)}.`,
    'APCER = attacks of that species accepted; BPCER = live presentations refused; [95% upper bound]; no face = refused because no face was found;',
    'retake = the check asked the applicant to move back (a failure to acquire, outside APCER/BPCER of the checks; the model signal is scored on it anyway).',
  ];
  for (const kind of ['still', 'sequence'] as const) {
    const ofKind = rates.filter((r) => r.kind === kind);
    const signals = [...new Set(ofKind.map((r) => r.signal))];
    const species = [...new Set(ofKind.map((r) => r.species))].sort(
      (a, b) => Number(a === 'live') - Number(b === 'live') || a.localeCompare(b),
    );
    if (!signals.length) continue;
    lines.push(
      '',
      `${kind === 'still' ? 'Stills' : 'Challenge sequences'}:`,
      `| ${kind === 'still' ? 'species' : 'sequence'} | n | ${signals.join(' | ')} |`,
      `|---|---|${signals.map(() => '---').join('|')}|`,
    );
    for (const s of species) {
      const cells = signals.map((signal) => {
        const r = ofKind.find((x) => x.signal === signal && x.species === s);
        return r ? `${r.live ? 'BPCER' : 'APCER'} ${pct(r.rate)} (${r.errors}/${r.samples}) [≤${pct(r.upper95)}]` : '–';
      });
      const all = ofKind.filter((x) => x.species === s);
      const n = Math.max(...all.map((x) => x.samples + x.retakes));
      const retakes = Math.max(...all.map((x) => x.retakes));
      const noFace = Math.max(...all.map((x) => x.noFace));
      const notes = [noFace ? `${noFace} no face` : '', retakes ? `${retakes} retake` : ''].filter(Boolean).join(', ');
      lines.push(`| ${s} | ${n}${notes ? ` (${notes})` : ''} | ${cells.join(' | ')} |`);
    }
  }
  return lines;
}

const colours = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#b07aa1'];

/** One horizontal bar per species and signal: APCER for attacks, BPCER for live, with the 10 % and 5 % targets. */
export function padRatesChartSvg(rates: PadRate[]): string {
  const rows = ['still', 'sequence'].flatMap((kind) => {
    const ofKind = rates.filter((r) => r.kind === kind);
    return [...new Set(ofKind.map((r) => r.species))].map((species) => ({
      label: `${kind === 'still' ? '' : 'seq '}${species}`,
      bars: ofKind.filter((r) => r.species === species),
    }));
  });
  const signals = [...new Set(rates.map((r) => r.signal))];
  const barHeight = 9;
  const rowHeight = barHeight * Math.max(...rows.map((r) => r.bars.length), 1) + 10;
  const left = 170;
  const width = 520;
  const top = 50;
  const height = top + rows.length * rowHeight + 40 + signals.length * 16;
  const x = (rate: number) => left + rate * width;
  const parts = [
    `<rect width="${left + width + 40}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="20" font-size="14" font-weight="bold">PAD error rates: APCER per attack species, BPCER live</text>`,
  ];
  for (const [rate, label] of [
    [0, '0'],
    [0.05, '5%'],
    [0.1, '10%'],
    [0.25, '25%'],
    [0.5, '50%'],
    [1, '100%'],
  ] as Array<[number, string]>) {
    parts.push(
      `<line x1="${x(rate)}" y1="${top - 6}" x2="${x(rate)}" y2="${top + rows.length * rowHeight}" stroke="${rate === 0.1 || rate === 0.05 ? '#c33' : '#ddd'}" stroke-dasharray="${rate === 0.1 || rate === 0.05 ? '4,3' : ''}"/>`,
    );
    parts.push(`<text x="${x(rate)}" y="${top - 10}" font-size="10" text-anchor="middle">${label}</text>`);
  }
  rows.forEach((row, i) => {
    const y0 = top + i * rowHeight;
    parts.push(
      `<text x="${left - 6}" y="${y0 + rowHeight / 2 + 3}" font-size="11" text-anchor="end">${escapeXml(row.label)}</text>`,
    );
    row.bars.forEach((bar, k) => {
      const colour = colours[signals.indexOf(bar.signal) % colours.length];
      parts.push(
        `<rect x="${left}" y="${y0 + 4 + k * barHeight}" width="${Math.max(1, bar.rate * width)}" height="${barHeight - 2}" fill="${colour}"/>`,
      );
      parts.push(
        `<text x="${x(bar.rate) + 4}" y="${y0 + 4 + k * barHeight + 7}" font-size="8">${bar.errors}/${bar.samples}</text>`,
      );
    });
  });
  signals.forEach((signal, k) => {
    const y = top + rows.length * rowHeight + 24 + k * 16;
    parts.push(
      `<rect x="${left}" y="${y - 9}" width="12" height="10" fill="${colours[k % colours.length]}"/><text x="${left + 18}" y="${y}" font-size="11">${escapeXml(signal)}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 40}" height="${height}" font-family="sans-serif">\n${parts.join('\n')}\n</svg>\n`;
}
