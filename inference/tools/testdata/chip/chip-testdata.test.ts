/**
 * The chip test set checked by a parser that is not ours: OpenSSL verifies each SOD's CMS signature
 * and chain to the test CSCA, and the LDS security object it hands back holds the hashes of the
 * data group files as written.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chipTestdataDir,
  committedTestCscaDir,
  generateChipTestdata,
  type ChipManifest,
} from './generate-chip-testdata';

let manifest: ChipManifest;
const work = mkdtempSync(path.join(tmpdir(), 'chip-testdata-'));
const file = (relative: string): Buffer => readFileSync(path.join(chipTestdataDir, relative));

/** EF.SOD is the ContentInfo inside the 0x77 application tag; OpenSSL wants the bare ContentInfo. */
function bareSod(sod: Buffer): Buffer {
  const lengthBytes = sod[1] & 0x80 ? (sod[1] & 0x7f) + 1 : 1;
  return sod.subarray(1 + lengthBytes);
}

function opensslVerify(chipId: string): { status: number | null; content: Buffer; stderr: string } {
  const chip = manifest.chips.find((c) => c.id === chipId)!;
  const sodPath = path.join(work, `${chipId}.der`);
  const contentPath = path.join(work, `${chipId}.lds`);
  writeFileSync(sodPath, bareSod(file(chip.files.sod)));
  const cafile = path.join(chipTestdataDir, `pki/csca-${chip.document.country}.pem`);
  const result = spawnSync(
    'openssl',
    ['cms', '-verify', '-inform', 'DER', '-in', sodPath, '-CAfile', cafile, '-purpose', 'any', '-out', contentPath],
    { encoding: 'utf8' },
  );
  const content = result.status === 0 ? readFileSync(contentPath) : Buffer.alloc(0);
  return { status: result.status, content, stderr: result.stderr };
}

beforeAll(async () => {
  manifest = await generateChipTestdata();
}, 300_000);

describe('the chip test set', () => {
  it('has every valid chip verified by openssl cms, with the LDS hashes of its data group files', () => {
    const valid = manifest.chips.filter((c) => c.case === 'valid');
    expect(valid.length).toBeGreaterThanOrEqual(6);
    for (const chip of valid) {
      const { status, content, stderr } = opensslVerify(chip.id);
      expect({ chip: chip.id, status, stderr }).toEqual({
        chip: chip.id,
        status: 0,
        stderr: 'CMS Verification successful\n',
      });
      const hash = chip.sod.lds_hash;
      for (const key of ['dg1', 'dg2', 'dg14', 'dg15'] as const) {
        const dataGroup = chip.files[key];
        if (!dataGroup) continue;
        const digest = createHash(hash).update(file(dataGroup)).digest();
        expect(content.includes(digest)).toBe(true);
      }
    }
  });

  it('has openssl refuse the flipped signature and the untrusted chain', () => {
    expect(opensslVerify(manifest.chips.find((c) => c.case === 'bad-sod-signature')!.id).stderr).toMatch(
      /verification failure/,
    );
    expect(opensslVerify(manifest.chips.find((c) => c.case === 'untrusted-csca')!.id).stderr).toMatch(
      /unable to get local issuer certificate/,
    );
  });

  it('has the altered data group no longer hash to the value the SOD signed', () => {
    const chip = manifest.chips.find((c) => c.case === 'altered-data-group')!;
    const { status, content } = opensslVerify(chip.id);
    expect(status).toBe(0);
    expect(content.includes(createHash(chip.sod.lds_hash).update(file(chip.files.dg2)).digest())).toBe(false);
    expect(content.includes(createHash(chip.sod.lds_hash).update(file(chip.files.dg1)).digest())).toBe(true);
  });

  it('commits the same test CSCAs the seeds make, and openssl reads the CRL as signed by them', () => {
    for (const relative of manifest.trust.csca) {
      const committed = readFileSync(path.join(committedTestCscaDir, path.basename(relative)));
      expect(new X509Certificate(committed).raw.equals(new X509Certificate(file(relative)).raw)).toBe(true);
    }
    const crl = manifest.trust.crl[0];
    const out = execFileSync(
      'openssl',
      [
        'crl',
        '-inform',
        'DER',
        '-in',
        path.join(chipTestdataDir, crl),
        '-CAfile',
        path.join(chipTestdataDir, manifest.trust.csca[0]),
        '-noout',
        '-text',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).toMatch(/Serial Number: 68/); // 104
  });
});
