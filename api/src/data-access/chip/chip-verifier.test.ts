/**
 * The chip verifier on the generated test set (`npm run testdata:chip`): every valid chip passes
 * passive and active authentication, every negative case fails with its reason, and malformed
 * files are refused with the field named. The portrait and MRZ comparisons belong to the decision
 * and are not this verifier's: here those chips verify, as genuine chips do.
 */
import { createPrivateKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { internalAuthenticate, type AaRsaHash } from '../../../../inference/tools/testdata/chip/chip-simulator';
import {
  chipTestdataDir,
  generateChipTestdata,
  type ChipManifest,
  type ChipManifestEntry,
} from '../../../../inference/tools/testdata/chip/generate-chip-testdata';
import type { ChipFiles, IssuedChallenge } from '../../domain/chip/chip-verification';
import { chipMrzMismatches } from '../../domain/chip/chip-mrz-match';
import type { DocumentPerson } from '../../domain/checks/check-results';
import { ChipFormatError } from '../../domain/ports/chip-verifier';
import { loadTestCscas, loadTrustAnchors, type TrustStore } from '../chip-trust/trust-anchors';
import { PkijsChipVerifier } from './chip-verifier';

let manifest: ChipManifest;
let withCrls: TrustStore;
const NOW = new Date('2026-11-27T12:00:00Z');
const file = (relative: string): Buffer => readFileSync(path.join(chipTestdataDir, relative));

function chipFiles(chip: ChipManifestEntry, issued: IssuedChallenge | null): ChipFiles {
  const files: ChipFiles = { sod: file(chip.files.sod), dg1: file(chip.files.dg1), dg2: file(chip.files.dg2) };
  if (chip.files.dg14) files.dg14 = file(chip.files.dg14);
  if (chip.files.dg15) files.dg15 = file(chip.files.dg15);
  const aa = chip.active_authentication;
  if (aa && issued) {
    const key = createPrivateKey(file(aa.private_key));
    const signature = internalAuthenticate(key, issued.challenge, { rsaHash: aa.hash as AaRsaHash });
    files.activeAuthentication = { challenge: issued.challenge, signature };
  }
  return files;
}

const challenge = (used = false): IssuedChallenge => ({
  challenge: randomBytes(8),
  expiresAt: new Date(NOW.getTime() + 5 * 60_000),
  used,
});

beforeAll(async () => {
  manifest = await generateChipTestdata();
  withCrls = loadTrustAnchors(
    [...manifest.trust.csca, ...manifest.trust.crl].map((f) => path.join(chipTestdataDir, f)),
  );
}, 300_000);

describe('the chip verifier', () => {
  it('passes every valid chip with passive and, where the chip has DG15, active authentication', async () => {
    const verifier = new PkijsChipVerifier(withCrls);
    for (const chip of manifest.chips.filter((c) => c.case === 'valid')) {
      const result = await verifier.verify(chipFiles(chip, challenge()), {
        now: NOW,
        challenge: challenge(),
        trustTestCsca: false,
      });
      // A fresh challenge object differs from the one signed: that must fail, proving AA is checked.
      if (chip.files.dg15) expect(result.reason).toBe('CHIP_CLONE_SUSPECTED');
      const issued = challenge();
      const ok = await verifier.verify(chipFiles(chip, issued), { now: NOW, challenge: issued, trustTestCsca: false });
      expect({ chip: chip.id, verdict: ok.verdict, reason: ok.reason, detail: ok.detail }).toEqual({
        chip: chip.id,
        verdict: 'PASS',
        reason: null,
        detail: null,
      });
      expect(ok.evidence.active_authentication).toBe(chip.files.dg15 ? 'PASSED' : 'NOT_SUPPORTED');
      expect(ok.evidence.data_groups_verified).toEqual(
        [1, 2, 14, 15].filter((n) => (chip.files as Record<string, string | undefined>)[`dg${n}`]),
      );
      expect(ok.evidence.hash_algorithm).toBe(chip.sod.lds_hash);
      expect(ok.evidence.csca?.subject).toContain(`C=${chip.document.country}`);
      expect(ok.mrz.lines).toEqual(chip.document.mrz_lines);
      const portrait = await sharp(ok.portrait!).metadata();
      expect([portrait.format, portrait.width, portrait.height]).toEqual(['jpeg', 240, 320]);
    }
  });

  it('fails each negative case of the test set with its reason', async () => {
    const verifier = new PkijsChipVerifier(withCrls);
    const verifierReasons: Record<string, string> = {
      'altered-data-group': 'CHIP_DATA_ALTERED',
      'untrusted-csca': 'CHIP_ISSUER_UNTRUSTED',
      'expired-document-signer': 'CHIP_CERTIFICATE_INVALID',
      'revoked-document-signer': 'CHIP_CERTIFICATE_INVALID',
      'bad-sod-signature': 'CHIP_SIGNATURE_INVALID',
      'cloned-without-aa-key': 'CHIP_CLONE_SUSPECTED',
      'reused-challenge': 'CHIP_CLONE_SUSPECTED',
    };
    for (const chip of manifest.chips.filter((c) => verifierReasons[c.case])) {
      const issued = challenge();
      const files = chipFiles(chip, issued);
      if (chip.case === 'reused-challenge') issued.used = true; // the answer a first submission already spent
      const result = await verifier.verify(files, { now: NOW, challenge: issued, trustTestCsca: false });
      expect({ chip: chip.id, verdict: result.verdict, reason: result.reason }).toEqual({
        chip: chip.id,
        verdict: 'FAIL',
        reason: verifierReasons[chip.case],
      });
      expect(chip.expected.reason).toBe(verifierReasons[chip.case]);
    }
  });

  it('verifies the genuine chip of another document, whose DG1 then differs from the page: CHIP_MRZ_MISMATCH', async () => {
    const labels = JSON.parse(readFileSync(path.join(chipTestdataDir, '..', 'documents', 'labels.json'), 'utf8')) as {
      documents: { file: string; expected: { fields: Record<string, string> } }[];
    };
    const pageOf = (chip: ChipManifestEntry): DocumentPerson => {
      const fields = labels.documents.find((d) => d.file === chip.document.file)!.expected.fields;
      return {
        name: fields.name,
        dob: fields.birth_date,
        document_type: 'passport',
        document_country: fields.document_country,
        document_number: fields.document_number,
        expiry_date: fields.expiry_date,
        nationality: fields.nationality,
        address: null,
      };
    };
    const verifier = new PkijsChipVerifier(withCrls);
    const verify = (chip: ChipManifestEntry) =>
      verifier.verify(chipFiles(chip, null), { now: NOW, challenge: null, trustTestCsca: false });
    const other = manifest.chips.find((c) => c.case === 'dg1-from-other-document')!;
    const result = await verify(other);
    expect(result.verdict).toBe('PASS');
    expect(chipMrzMismatches(result.mrz, pageOf(other))).toEqual([
      'document_number',
      'birth_date',
      'expiry_date',
      'name',
    ]);
    for (const chip of manifest.chips.filter((c) => c.case === 'valid'))
      expect(chipMrzMismatches((await verify(chip)).mrz, pageOf(chip))).toEqual([]);
  });

  it('trusts the committed test CSCAs only when asked to (sandbox keys), and nothing by default', async () => {
    const chip = manifest.chips.find((c) => c.case === 'valid' && !c.files.dg15)!;
    const verifier = new PkijsChipVerifier({ anchors: [], crls: [] }, loadTestCscas());
    const live = await verifier.verify(chipFiles(chip, null), { now: NOW, challenge: null, trustTestCsca: false });
    expect([live.verdict, live.reason]).toEqual(['FAIL', 'CHIP_ISSUER_UNTRUSTED']);
    const sandbox = await verifier.verify(chipFiles(chip, null), { now: NOW, challenge: null, trustTestCsca: true });
    expect([sandbox.verdict, sandbox.reason]).toEqual(['PASS', null]);
  });

  it('says so when a chip with DG15 was not actively authenticated, instead of passing it silently', async () => {
    const chip = manifest.chips.find((c) => c.case === 'valid' && c.files.dg15)!;
    const result = await new PkijsChipVerifier(withCrls).verify(chipFiles(chip, null), {
      now: NOW,
      challenge: null,
      trustTestCsca: false,
    });
    expect([result.verdict, result.evidence.active_authentication]).toEqual(['PASS', 'NOT_PERFORMED']);
  });

  it('refuses an expired challenge as a clone would be refused', async () => {
    const chip = manifest.chips.find((c) => c.case === 'valid' && c.files.dg15)!;
    const issued = { ...challenge(), expiresAt: new Date(NOW.getTime() - 1) };
    const result = await new PkijsChipVerifier(withCrls).verify(chipFiles(chip, issued), {
      now: NOW,
      challenge: issued,
      trustTestCsca: false,
    });
    expect(result.reason).toBe('CHIP_CLONE_SUSPECTED');
  });

  it('names the malformed field: a truncated SOD, a DG1 under the wrong tag, a DG2 without a face record', () => {
    const verifier = new PkijsChipVerifier(withCrls);
    const malformed = manifest.chips.find((c) => c.case === 'malformed-sod')!;
    const valid = manifest.chips.find((c) => c.case === 'valid')!;
    const fieldOf = (files: ChipFiles): string | null => {
      try {
        verifier.inspect(files);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(ChipFormatError);
        return (error as ChipFormatError).field;
      }
    };
    expect(fieldOf(chipFiles(malformed, null))).toBe('sod');
    const dg1 = Buffer.from(file(valid.files.dg1));
    dg1[0] = 0x62;
    expect(fieldOf({ ...chipFiles(valid, null), dg1 })).toBe('dg1');
    expect(fieldOf({ ...chipFiles(valid, null), dg2: Buffer.from([0x75, 0x03, 0x7f, 0x61, 0x00]) })).toBe('dg2');
    expect(fieldOf({ ...chipFiles(valid, null), sod: Buffer.from([0x77, 0x02, 0x30, 0x00]) })).toBe('sod');
    expect(fieldOf(chipFiles(valid, null))).toBeNull();
  });
});
