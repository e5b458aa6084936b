/**
 * `npm run bench:capture-reuse`: where the perceptual reuse line (CAPTURE_REUSED for a re-encoded,
 * resized, cropped or re-lit copy of another session's capture) falls, from data:
 *  - true matches: every document, face image and a sample of liveness/PAD frames, each
 *    re-encoded (JPEG q 60, 75, 95), resized (0.5, 0.75, 0.9), cropped (2 % and 5 % off one corner,
 *    5 % around) and re-lit (brightness 0.9, 1.1), against its original;
 *  - false matches: every pair of DIFFERENT captures: the generated documents (many share a
 *    template), the face sets' images of different people, the liveness and PAD frames of
 *    different sequences (frames of one sequence are one session's and do not count).
 * For pHash (DCT) and dHash, the share of pairs within each Hamming distance, with counts, and the
 * CPU per hash (median). `--every K` samples every K-th true-match base. Writes
 * benchmarks/results/capture-reuse.{json,md}.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { dctHash, hammingDistance } from '../../api/src/public-entry';
import { median } from '../../scripts/test-support/percentiles';

const ROOT = path.resolve(__dirname, '../..');
const DATA = path.join(ROOT, '.state/testdata');
const OUT = path.join(ROOT, 'benchmarks/results');
const { values: args } = parseArgs({ options: { every: { type: 'string', default: '1' } } });
const EVERY = Number(args.every);
const LINES = Array.from({ length: 21 }, (_, i) => i);
type Sharp = ReturnType<typeof sharp>;

/** dHash, the comparison: whether each pixel of a 9×8 grey downscale is brighter than its left neighbour. */
async function differenceHash(bytes: Buffer): Promise<string> {
  const { data } = await sharp(bytes)
    .greyscale()
    .resize(9, 8, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let hex = '';
  for (let y = 0; y < 8; y++) {
    let byte = 0;
    for (let x = 0; x < 8; x++) byte = (byte << 1) | (data[y * 9 + x + 1] > data[y * 9 + x] ? 1 : 0);
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

const METHODS = { pHash: dctHash, dHash: differenceHash } as const;
type Method = keyof typeof METHODS;

/** One capture: its set, the session it belongs to (pairs within one do not count) and whose it is. */
interface Capture {
  set: 'documents' | 'faces' | 'frames';
  session: string;
  who: string;
  file: string;
}

const jpgs = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.jpg'));

function captures(): Capture[] {
  const out: Capture[] = [];
  const documents = path.join(DATA, 'documents');
  const labels = JSON.parse(readFileSync(path.join(documents, 'labels.json'), 'utf8')) as {
    documents: { file: string; format: string }[];
  };
  for (const d of labels.documents) {
    out.push({ set: 'documents', session: d.file, who: d.format, file: path.join(documents, d.file) });
  }
  const person = (f: string) => f.split('__')[0];
  for (const dir of ['faces', 'faces/antispoof', 'face-line']) {
    for (const f of jpgs(path.join(DATA, dir))) {
      // The face line's ID-card and passport images are document photos: documents of their own template.
      const document = /__(id-card|passport)\.jpg$/.test(f);
      const who = document ? `face-line ${f.split('__')[1]}` : person(f);
      out.push({ set: document ? 'documents' : 'faces', session: `${dir}/${f}`, who, file: path.join(DATA, dir, f) });
    }
  }
  // The liveness set's frames are one subject's posed stills, played in sequences: one session each.
  for (const f of jpgs(path.join(DATA, 'liveness'))) {
    out.push({ set: 'frames', session: `liveness/${person(f)}`, who: person(f), file: path.join(DATA, 'liveness', f) });
  }
  // pad/ is a subset of pad-full/ (the same files): pad-full alone. Its samples name the person
  // whose photo they were made from: pairs from one photo are counted apart.
  const padLabels = JSON.parse(readFileSync(path.join(DATA, 'pad-full/labels.json'), 'utf8')) as {
    stills: { image: string; source_identity: string }[];
    sequences: { name: string; frames: string[]; source_identity: string }[];
  };
  for (const still of padLabels.stills) {
    const file = path.join(DATA, 'pad-full', still.image);
    out.push({ set: 'frames', session: `pad-full/${still.image}`, who: still.source_identity, file });
  }
  for (const sequence of padLabels.sequences) {
    for (const frame of sequence.frames) {
      const file = path.join(DATA, 'pad-full', frame);
      out.push({ set: 'frames', session: `pad-full/${sequence.name}`, who: sequence.source_identity, file });
    }
  }
  return out;
}

const TRANSFORMS: Record<string, (img: Sharp, w: number, h: number) => Sharp> = {
  'jpeg q60': (img) => img.jpeg({ quality: 60 }),
  'jpeg q75': (img) => img.jpeg({ quality: 75 }),
  'jpeg q95': (img) => img.jpeg({ quality: 95 }),
  'resize 0.5': (img, w, h) =>
    img.resize(Math.round(w * 0.5), Math.round(h * 0.5), { fit: 'fill' }).jpeg({ quality: 90 }),
  'resize 0.75': (img, w, h) =>
    img.resize(Math.round(w * 0.75), Math.round(h * 0.75), { fit: 'fill' }).jpeg({ quality: 90 }),
  'resize 0.9': (img, w, h) =>
    img.resize(Math.round(w * 0.9), Math.round(h * 0.9), { fit: 'fill' }).jpeg({ quality: 90 }),
  'crop 2% corner': (img, w, h) => img.extract(corner(w, h, 0.02)).jpeg({ quality: 90 }),
  'crop 5% corner': (img, w, h) => img.extract(corner(w, h, 0.05)).jpeg({ quality: 90 }),
  'crop 5% around': (img, w, h) => {
    const dx = Math.round(w * 0.025);
    const dy = Math.round(h * 0.025);
    return img.extract({ left: dx, top: dy, width: w - 2 * dx, height: h - 2 * dy }).jpeg({ quality: 90 });
  },
  'brightness 0.9': (img) => img.modulate({ brightness: 0.9 }).jpeg({ quality: 90 }),
  'brightness 1.1': (img) => img.modulate({ brightness: 1.1 }).jpeg({ quality: 90 }),
};

function corner(w: number, h: number, share: number) {
  const dx = Math.round(w * share);
  const dy = Math.round(h * share);
  return { left: dx, top: dy, width: w - dx, height: h - dy };
}

/** Counts of pairs at each distance 0..64. */
const histogram = () => new Array<number>(65).fill(0);
const within = (counts: number[], line: number) => counts.slice(0, line + 1).reduce((a, b) => a + b, 0);

async function main() {
  const all = captures();
  const hashes: Record<Method, string[]> = { pHash: [], dHash: [] };
  const cpu: Record<Method, number[]> = { pHash: [], dHash: [] };
  const bytes = all.map((c) => readFileSync(c.file));
  for (const method of Object.keys(METHODS) as Method[]) {
    for (const b of bytes) {
      const t = process.cpuUsage();
      hashes[method].push(await METHODS[method](b));
      const used = process.cpuUsage(t);
      cpu[method].push((used.user + used.system) / 1000);
    }
  }
  // False matches: pairs of different sessions within each set (faces: different people too).
  const falsePairs: Record<string, Record<Method, number[]>> = {};
  const nearest: Record<string, { distance: number; a: string; b: string }[]> = {};
  for (const set of [
    'documents',
    'documents same template',
    'faces',
    'faces same person',
    'frames',
    'frames same person',
  ]) {
    falsePairs[set] = { pHash: histogram(), dHash: histogram() };
    nearest[set] = [];
  }
  // The sets share some files byte for byte (the PAD set's live sequences replay the liveness
  // stills): those are the same capture, caught by the exact digest, and are counted apart.
  const digest = bytes.map((b) => createHash('sha256').update(b).digest('hex'));
  let identical = 0;
  // Per pair of frame sessions: how many of the first's frames have a match in the second, per line.
  const frameSessions = [...new Set(all.filter((c) => c.set === 'frames').map((c) => c.session))];
  const framesOf = new Map(frameSessions.map((s) => [s, all.flatMap((c, i) => (c.session === s ? [i] : []))]));
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i];
      const b = all[j];
      if (a.set !== b.set || a.session === b.session) continue;
      if (digest[i] === digest[j]) {
        identical++;
        continue;
      }
      const key =
        a.set === 'documents' && a.who === b.who
          ? 'documents same template'
          : a.set !== 'documents' && a.who === b.who
            ? `${a.set} same person`
            : a.set;
      for (const method of Object.keys(METHODS) as Method[]) {
        const d = hammingDistance(hashes[method][i], hashes[method][j]);
        falsePairs[key][method][d]++;
        if (method === 'pHash' && d <= 12) nearest[key].push({ distance: d, a: a.session, b: b.session });
      }
    }
  }
  for (const set of Object.keys(nearest))
    nearest[set] = nearest[set].sort((x, y) => x.distance - y.distance).slice(0, 8);
  // `documents` counts every pair of different documents: those of one template are counted in both rows.
  for (const method of Object.keys(METHODS) as Method[]) {
    falsePairs['documents'][method] = falsePairs['documents'][method].map(
      (n, d) => n + falsePairs['documents same template'][method][d],
    );
  }

  // True matches: transformed copies against their original.
  const truePairs: Record<string, Record<Method, number[]>> = {};
  const frameSample = all.map((c, i) => ({ c, i })).filter(({ c }) => c.set === 'frames');
  const bases = all
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.set !== 'frames')
    .concat(frameSample.filter((_, k) => k % 20 === 0))
    .filter((_, k) => k % EVERY === 0);
  for (const { c, i } of bases) {
    const meta = await sharp(bytes[i]).metadata();
    for (const [name, transform] of Object.entries(TRANSFORMS)) {
      const copy = await transform(sharp(bytes[i]), meta.width, meta.height).toBuffer();
      const key = `${c.set}: ${name}`;
      truePairs[key] ??= { pHash: histogram(), dHash: histogram() };
      for (const method of Object.keys(METHODS) as Method[]) {
        truePairs[key][method][hammingDistance(hashes[method][i], await METHODS[method](copy))]++;
      }
    }
  }

  const sessionLines = [4, 7, 10];
  const whoOf = new Map(all.map((c) => [c.session, c.who]));
  const sessionPairs = { pairs: 0, lines: Object.fromEntries(sessionLines.map((l) => [l, { any: 0, half: 0 }])) };
  for (const a of frameSessions) {
    for (const b of frameSessions) {
      // Different people only: sequences made from one person's photo are counted in the frame rows.
      if (a === b || whoOf.get(a) === whoOf.get(b)) continue;
      const mine = framesOf.get(a)!;
      const theirs = framesOf.get(b)!;
      if (mine.every((i) => theirs.some((j) => digest[i] === digest[j]))) continue; // the same recording
      sessionPairs.pairs++;
      for (const line of sessionLines) {
        const matched = mine.filter((i) =>
          theirs.some((j) => digest[i] !== digest[j] && hammingDistance(hashes.pHash[i], hashes.pHash[j]) <= line),
        ).length;
        if (matched > 0) sessionPairs.lines[line].any++;
        if (matched >= Math.max(2, Math.ceil(mine.length / 2))) sessionPairs.lines[line].half++;
      }
    }
  }

  const result = {
    byte_identical_pairs_left_out: identical,
    frame_session_pairs_pHash: sessionPairs,
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() },
    date: new Date().toISOString(),
    command: `npm run bench:capture-reuse${EVERY > 1 ? ` -- --every ${EVERY}` : ''}`,
    captures: Object.fromEntries(
      ['documents', 'faces', 'frames'].map((s) => [s, all.filter((c) => c.set === s).length]),
    ),
    cpu_ms_per_hash_median: { pHash: median(cpu.pHash), dHash: median(cpu.dHash) },
    lines: LINES,
    true_matches: truePairs,
    false_matches: falsePairs,
    nearest_false_pairs_pHash: nearest,
  };
  writeFileSync(path.join(OUT, 'capture-reuse.json'), `${JSON.stringify(result, null, 1)}\n`);
  writeFileSync(path.join(OUT, 'capture-reuse.md'), markdown(result));
  process.stdout.write(markdown(result));
}

function markdown(r: {
  date: string;
  command: string;
  machine: { loadavg: number[] };
  captures: Record<string, number>;
  cpu_ms_per_hash_median: Record<Method, number | null>;
  byte_identical_pairs_left_out: number;
  frame_session_pairs_pHash: { pairs: number; lines: Record<string, { any: number; half: number }> };
  true_matches: Record<string, Record<Method, number[]>>;
  false_matches: Record<string, Record<Method, number[]>>;
  nearest_false_pairs_pHash: Record<string, { distance: number; a: string; b: string }[]>;
}): string {
  const shown = [0, 2, 4, 6, 8, 10, 12, 14, 16];
  const row = (name: string, counts: number[]) => {
    const total = counts.reduce((a, b) => a + b, 0);
    return `| ${name} | ${total} | ${shown.map((l) => `${within(counts, l)} (${((100 * within(counts, l)) / Math.max(total, 1)).toFixed(1)} %)`).join(' | ')} |`;
  };
  const table = (title: string, rows: Record<string, Record<Method, number[]>>, method: Method) =>
    [
      `### ${title}, ${method}: pairs within Hamming distance d (of 64 bits)`,
      '',
      `| pairs | n | ${shown.map((l) => `d ≤ ${l}`).join(' | ')} |`,
      `|---|---|${shown.map(() => '---').join('|')}|`,
      ...Object.entries(rows).map(([name, m]) => row(name, m[method])),
      '',
    ].join('\n');
  return [
    `# Perceptual capture reuse: where the line falls`,
    '',
    `\`${r.command}\`, ${r.date}, load average ${r.machine.loadavg.map((l) => l.toFixed(2)).join(' ')}.`,
    `Captures: ${Object.entries(r.captures)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ')}.`,
    `CPU per hash (median over every capture): pHash ${r.cpu_ms_per_hash_median.pHash?.toFixed(2)} ms, dHash ${r.cpu_ms_per_hash_median.dHash?.toFixed(2)} ms.`,
    '',
    ...(['pHash', 'dHash'] as Method[]).flatMap((m) => [
      table('True matches (a copy against its original)', r.true_matches, m),
      table('False matches (different captures)', r.false_matches, m),
    ]),
    `Pairs of byte-identical files in different sets' sessions (the same capture, left out): ${r.byte_identical_pairs_left_out}.`,
    '',
    `### Liveness and PAD sequences as sessions, pHash: ordered pairs of sequences of different people (${r.frame_session_pairs_pHash.pairs})`,
    '',
    '| line | one frame or more matches | half the frames or more (at least 2) match |',
    '|---|---|---|',
    ...Object.entries(r.frame_session_pairs_pHash.lines).map(([l, v]) => `| d ≤ ${l} | ${v.any} | ${v.half} |`),
    '',
    '### Nearest false pairs, pHash',
    '',
    ...Object.entries(r.nearest_false_pairs_pHash).flatMap(([set, pairs]) =>
      pairs.map((p) => `- ${set}: d = ${p.distance}: ${p.a} / ${p.b}`),
    ),
    '',
  ].join('\n');
}

void main();
