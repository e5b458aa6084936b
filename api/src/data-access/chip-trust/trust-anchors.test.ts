/**
 * Trust anchors as operators configure them: PEM CSCAs, DER CRLs and CMS-signed CSCA Master Lists,
 * whose signature is verified first: a Master List with a broken signature is refused whole.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chipTestdataDir,
  generateChipTestdata,
  type ChipManifest,
} from '../../../../inference/tools/testdata/chip/generate-chip-testdata';
import { loadTestCscas, loadTrustAnchors, readAnchorFile, TrustAnchorError } from './trust-anchors';

let manifest: ChipManifest;
const at = (relative: string): string => path.join(chipTestdataDir, relative);

beforeAll(async () => {
  manifest = await generateChipTestdata();
}, 300_000);

describe('chip trust anchors', () => {
  it('imports the four test CSCAs from a signed Master List, with country and subject', () => {
    const store = readAnchorFile(at(manifest.trust.master_list));
    expect(store.anchors.map((a) => a.country).sort()).toEqual(['FI', 'HU', 'PT', 'US']);
    expect(store.anchors[0].subject).toMatch(/^C=[A-Z]{2}, O=bioverify test PKI .*, CN=bioverify Test CSCA [A-Z]{2}$/);
    expect(store.anchors.every((a) => a.source.endsWith('(Master List)'))).toBe(true);
  });

  it('refuses a Master List whose signature does not verify', () => {
    expect(() => readAnchorFile(at(manifest.trust.master_list_bad_signature))).toThrow(TrustAnchorError);
    expect(() => readAnchorFile(at(manifest.trust.master_list_bad_signature))).toThrow(/signature does not verify/);
  });

  it('loads a folder of PEM certificates and DER CRLs, and refuses a file that is none of the forms', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'anchors-'));
    copyFileSync(at(manifest.trust.csca[0]), path.join(folder, 'csca.pem'));
    copyFileSync(at(manifest.trust.crl[0]), path.join(folder, 'csca.crl'));
    const store = loadTrustAnchors([folder]);
    expect([store.anchors.length, store.crls.length]).toEqual([1, 1]);
    writeFileSync(path.join(folder, 'junk.der'), Buffer.from('not a certificate'));
    expect(() => loadTrustAnchors([folder])).toThrow(TrustAnchorError);
  });

  it('has the committed test CSCAs equal to the generated ones, marked as test anchors', () => {
    const test = loadTestCscas();
    const generated = loadTrustAnchors(manifest.trust.csca.map(at));
    expect(test.anchors.map((a) => a.der.toString('base64')).sort()).toEqual(
      generated.anchors.map((a) => a.der.toString('base64')).sort(),
    );
    expect(test.anchors.every((a) => a.test)).toBe(true);
    // Their CRLs too, so a revoked test Document Signer fails in sandbox as it would under an operator's CRL.
    expect(test.crls).toHaveLength(manifest.trust.crl.length);
  });
});
