/**
 * `npm run admin -- chip-trust list|import`: an operator imports a signed CSCA Master List and a
 * CRL into the anchors folder and lists them; a Master List whose signature fails is refused and
 * nothing is copied. Runs the real CLI as a process, as an operator would.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  chipTestdataDir,
  generateChipTestdata,
  type ChipManifest,
} from '../../inference/tools/testdata/chip/generate-chip-testdata';
import { failureOf } from './support/command-failure';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

interface Listing {
  imported?: string;
  anchors: { country: string; subject: string; key_usage: string[]; not_after: string; source: string }[];
  crls: { issuer_country: string; revoked: number }[];
}

describe('admin CLI chip-trust', () => {
  let manifest: ChipManifest;
  const folder = mkdtempSync(path.join(tmpdir(), 'chip-anchors-'));
  const admin = (...args: string[]) =>
    run(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      [path.join(ROOT, 'api/src/entry-points/cli/admin.ts'), 'chip-trust', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, CHIP_TRUST_ANCHORS: folder },
      },
    );

  beforeAll(async () => {
    manifest = await generateChipTestdata();
  }, 300_000);

  it('imports a signed Master List and a CRL, then lists the CSCAs with country, subject, key usage and validity', async () => {
    const imported = JSON.parse(
      (await admin('import', path.join(chipTestdataDir, manifest.trust.master_list))).stdout,
    ) as Listing;
    expect(imported.imported).toBe(path.join(folder, path.basename(manifest.trust.master_list)));
    expect(imported.anchors.map((a) => a.country).sort()).toEqual(['FI', 'HU', 'PT', 'US']);
    await admin('import', path.join(chipTestdataDir, manifest.trust.crl[0]));
    const listing = JSON.parse((await admin('list')).stdout) as Listing;
    expect(listing.anchors).toHaveLength(4);
    expect(listing.anchors[0]).toMatchObject({
      key_usage: ['keyCertSign', 'cRLSign'],
      not_after: '2045-01-01T00:00:00.000Z',
    });
    expect(listing.anchors[0].subject).toMatch(/CN=bioverify Test CSCA/);
    expect(listing.crls).toEqual([{ issuer_country: 'PT', revoked: 1, next_update: '2046-01-01T00:00:00.000Z' }]);
  });

  it('refuses a Master List whose signature does not verify, and copies nothing', async () => {
    const before = readdirSync(folder).sort();
    const failure = await failureOf(
      admin('import', path.join(chipTestdataDir, manifest.trust.master_list_bad_signature)),
    );
    expect(failure.code).toBe(65);
    expect(failure.stderr).toMatch(/signature does not verify/);
    expect(readdirSync(folder).sort()).toEqual(before);
    expect(existsSync(path.join(folder, path.basename(manifest.trust.master_list_bad_signature)))).toBe(false);
  });
});
