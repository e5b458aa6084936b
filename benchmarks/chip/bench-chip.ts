/**
 * `npm run bench:chip`: the CPU cost of verifying a passport chip (issue 36), per chip of the test
 * set: passive authentication (SOD signature, Document Signer chain, CRL, data group hashes),
 * active authentication where the chip has DG15, and the DG2 portrait made a JPEG (JPEG 2000
 * decoded by OpenJPEG WASM). The challenge is answered once per chip; every round verifies the
 * same files, as a server does per submission. BENCH_CHIP_ROUNDS (default 200) rounds per chip,
 * after 10 warm-up rounds. Writes benchmarks/results/chip.{json,md}.
 */
import { createPrivateKey, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTrustAnchors, PkijsChipVerifier } from '../../api/src/public-entry';
import type { ChipFiles } from '../../api/src/domain/chip/chip-verification';
import { internalAuthenticate, type AaRsaHash } from '../../inference/tools/testdata/chip/chip-simulator';
import { chipTestdataDir, generateChipTestdata } from '../../inference/tools/testdata/chip/generate-chip-testdata';

const ROUNDS = Number(process.env.BENCH_CHIP_ROUNDS ?? 200);
const OUT = path.resolve(__dirname, '../results');

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

interface Row {
  chip: string;
  sod_signature: string;
  lds_hash: string;
  active_authentication: string;
  portrait: string;
  rounds: number;
  p50_ms: number;
  p99_ms: number;
  cpu_ms_per_chip: number;
}

async function main(): Promise<void> {
  const manifest = await generateChipTestdata();
  const file = (relative: string): Buffer => readFileSync(path.join(chipTestdataDir, relative));
  const trust = loadTrustAnchors(
    [...manifest.trust.csca, ...manifest.trust.crl].map((f) => path.join(chipTestdataDir, f)),
  );
  const verifier = new PkijsChipVerifier(trust);
  const rows: Row[] = [];
  for (const chip of manifest.chips.filter((c) => c.case === 'valid')) {
    const challenge = randomBytes(8);
    const files: ChipFiles = { sod: file(chip.files.sod), dg1: file(chip.files.dg1), dg2: file(chip.files.dg2) };
    if (chip.files.dg14) files.dg14 = file(chip.files.dg14);
    if (chip.files.dg15) files.dg15 = file(chip.files.dg15);
    const aa = chip.active_authentication;
    if (aa)
      files.activeAuthentication = {
        challenge,
        signature: internalAuthenticate(createPrivateKey(file(aa.private_key)), challenge, {
          rsaHash: aa.hash as AaRsaHash,
        }),
      };
    const now = new Date();
    const context = {
      now,
      challenge: { challenge, expiresAt: new Date(now.getTime() + 300_000), used: false },
      trustTestCsca: false,
    };
    const once = async () => {
      const result = await verifier.verify(files, context);
      if (result.verdict !== 'PASS') throw new Error(`${chip.id}: ${result.reason} ${result.detail}`);
    };
    for (let i = 0; i < 10; i++) await once();
    const times: number[] = [];
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < ROUNDS; i++) {
      const start = process.hrtime.bigint();
      await once();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    const cpu = process.cpuUsage(cpuStart);
    times.sort((a, b) => a - b);
    rows.push({
      chip: chip.id,
      sod_signature:
        chip.sod.signature === 'ecdsa'
          ? 'ECDSA brainpoolP256r1'
          : chip.sod.signature === 'rsa-pss'
            ? 'RSA-PSS 2048'
            : 'RSA PKCS#1 2048',
      lds_hash: chip.sod.lds_hash,
      active_authentication: aa
        ? `${aa.key_type === 'rsa' ? 'RSA-1024 ISO 9796-2' : 'ECDSA'} (${aa.hash})`
        : 'none (no DG15)',
      portrait: chip.portrait.encoding,
      rounds: ROUNDS,
      p50_ms: Number(quantile(times, 0.5).toFixed(2)),
      p99_ms: Number(quantile(times, 0.99).toFixed(2)),
      cpu_ms_per_chip: Number(((cpu.user + cpu.system) / 1000 / ROUNDS).toFixed(2)),
    });
    console.log(rows[rows.length - 1]);
  }
  const machine = `${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}, node ${process.version}`;
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    path.join(OUT, 'chip.json'),
    JSON.stringify({ machine, measured_at: new Date().toISOString(), rows }, null, 1) + '\n',
  );
  const table = [
    '| chip | SOD signature | LDS hash | AA | DG2 | p50 ms | p99 ms | CPU ms/chip |',
    '| --- | --- | --- | --- | --- | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.chip} | ${r.sod_signature} | ${r.lds_hash} | ${r.active_authentication} | ${r.portrait} | ${r.p50_ms} | ${r.p99_ms} | ${r.cpu_ms_per_chip} |`,
    ),
  ].join('\n');
  writeFileSync(
    path.join(OUT, 'chip.md'),
    `# Chip verification cost (\`npm run bench:chip\`)\n\n${machine}; ${ROUNDS} verifications per chip after 10 warm-up ones, one at a time, in-process (PkijsChipVerifier.verify: passive + active authentication + DG2 portrait to JPEG). Wall-clock p50/p99 on a shared machine (load average ~18 on 2 cores during the run); the CPU column (process user+system time over the rounds) is the cost a server pays.\n\n${table}\n`,
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
