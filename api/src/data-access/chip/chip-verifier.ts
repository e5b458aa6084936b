/**
 * The ChipVerifier port over pkijs/asn1js and node:crypto: passive authentication (the SOD's
 * signature, the Document Signer's chain to a trusted CSCA, its validity, key usage and
 * revocation, the data group hashes), then active authentication against the session's own
 * challenge. The first failure in that order is the reason.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import * as pkijs from 'pkijs';
import type {
  ActiveAuthenticationOutcome,
  ChipEvidence,
  ChipFiles,
  ChipReason,
  ChipVerification,
  IssuedChallenge,
} from '../../domain/chip/chip-verification';
import type { ChipReceipt, ChipVerifier } from '../../domain/ports/chip-verifier';
import { alpha2OfIcao } from './icao-country';
import { verifyActiveAuthentication } from './active-authentication';
import { parseDg1, parseDg14, parseDg15, parseDg2, parseSod, type Dg14Infos } from './lds-parse';
import { portraitAsJpeg } from './portrait-decode';
import { publicKeyOf, signatureAlgorithmName, verifySignedBy } from './signatures';
import {
  countryOf,
  describeName,
  verifyCmsSignature,
  type TrustAnchor,
  type TrustStore,
} from '../chip-trust/trust-anchors';

const KEY_USAGE = '2.5.29.15';

class ChipFailure extends Error {
  constructor(
    readonly reason: ChipReason,
    message: string,
  ) {
    super(message);
  }
}

const serialHex = (certificate: pkijs.Certificate): string =>
  Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString('hex');

function hasDigitalSignatureUsage(certificate: pkijs.Certificate): boolean {
  const extension = certificate.extensions?.find((e) => e.extnID === KEY_USAGE);
  if (!extension) return true;
  // extnValue holds the BIT STRING's DER: 03, length, unused bits, then digitalSignature as bit 0.
  const der = extension.extnValue.valueBlock.valueHexView;
  return der.length >= 4 && (der[3] & 0x80) !== 0;
}

const within = (certificate: pkijs.Certificate, at: Date): boolean =>
  certificate.notBefore.value <= at && at <= certificate.notAfter.value;

export class PkijsChipVerifier implements ChipVerifier {
  constructor(
    private readonly trust: TrustStore,
    private readonly testTrust: TrustStore = { anchors: [], crls: [] },
  ) {}

  inspect(files: ChipFiles): ChipReceipt {
    parseSod(files.sod);
    parseDg1(files.dg1);
    parseDg2(files.dg2);
    const groups = [1, 2];
    if (files.dg14) {
      parseDg14(files.dg14);
      groups.push(14);
    }
    if (files.dg15) {
      parseDg15(files.dg15);
      groups.push(15);
    }
    return { data_groups: groups, active_authentication: Boolean(files.activeAuthentication) };
  }

  async verify(
    files: ChipFiles,
    context: { now: Date; challenge: IssuedChallenge | null; trustTestCsca: boolean },
  ): Promise<ChipVerification> {
    const sod = parseSod(files.sod);
    const mrz = parseDg1(files.dg1);
    const dg2 = parseDg2(files.dg2);
    const dg14: Dg14Infos | null = files.dg14 ? parseDg14(files.dg14) : null;
    const aaKey = files.dg15 ? parseDg15(files.dg15) : null;
    const ds = sod.documentSigner;
    const evidence: ChipEvidence = {
      issuing_state: mrz.issuing_state,
      document_signer: { subject: describeName(ds.subject), serial: serialHex(ds), country: countryOf(ds.issuer) },
      csca: null,
      hash_algorithm: sod.ldsHash,
      signature_algorithm: signatureAlgorithmName(
        sod.signerInfo.signatureAlgorithm,
        sod.signerInfo.digestAlgorithm.algorithmId,
      ),
      data_groups_verified: [],
      active_authentication: aaKey ? 'NOT_PERFORMED' : 'NOT_SUPPORTED',
      chip_authentication: dg14?.chipAuthentication ? 'CLIENT_ASSERTED' : 'NOT_PRESENT',
    };
    const anchors = context.trustTestCsca ? [...this.trust.anchors, ...this.testTrust.anchors] : this.trust.anchors;
    const crls = context.trustTestCsca ? [...this.trust.crls, ...this.testTrust.crls] : this.trust.crls;
    let portrait: Buffer | null = null;
    try {
      if (!verifyCmsSignature(sod.signerInfo, sod.eContent, ds))
        throw new ChipFailure(
          'CHIP_SIGNATURE_INVALID',
          'the SOD signature does not verify with the Document Signer key',
        );
      const csca = this.issuerOf(ds, anchors);
      evidence.csca = { subject: csca.subject };
      this.checkCertificate(ds, csca, crls, mrz.issuing_state, context.now);
      evidence.data_groups_verified = this.checkHashes(sod.ldsHash, sod.hashes, files);
      try {
        evidence.active_authentication = this.checkActiveAuthentication(files, aaKey, dg14, context);
      } catch (failure) {
        // The report must say AA failed, not that it was never tried.
        evidence.active_authentication = 'FAILED';
        throw failure;
      }
      portrait = await portraitAsJpeg(dg2.image, dg2.encoding).catch(() => null);
      return { verdict: 'PASS', reason: null, detail: null, evidence, mrz, portrait };
    } catch (error) {
      if (!(error instanceof ChipFailure)) throw error;
      return { verdict: 'FAIL', reason: error.reason, detail: error.message, evidence, mrz, portrait };
    }
  }

  private issuerOf(ds: pkijs.Certificate, anchors: TrustAnchor[]): TrustAnchor {
    const csca = anchors.find(
      (a) => a.certificate.subject.isEqual(ds.issuer) && verifySignedBy(ds, publicKeyOf(a.certificate)),
    );
    if (!csca) throw new ChipFailure('CHIP_ISSUER_UNTRUSTED', 'the Document Signer is not issued by a trusted CSCA');
    return csca;
  }

  private checkCertificate(
    ds: pkijs.Certificate,
    csca: TrustAnchor,
    crls: pkijs.CertificateRevocationList[],
    issuingState: string,
    now: Date,
  ): void {
    // A CSCA vouches only for its own state's documents: a trusted state cannot sign another's.
    if (alpha2OfIcao(issuingState) !== csca.country)
      throw new ChipFailure(
        'CHIP_ISSUER_UNTRUSTED',
        `the CSCA of ${csca.country} signed a document of ${issuingState}`,
      );
    if (!within(ds, now))
      throw new ChipFailure('CHIP_CERTIFICATE_INVALID', 'the Document Signer certificate is not valid now');
    if (!within(csca.certificate, ds.notBefore.value))
      throw new ChipFailure('CHIP_CERTIFICATE_INVALID', 'the CSCA was not valid when it issued the Document Signer');
    if (!hasDigitalSignatureUsage(ds))
      throw new ChipFailure(
        'CHIP_CERTIFICATE_INVALID',
        'the Document Signer certificate lacks digitalSignature key usage',
      );
    const cscaKey = publicKeyOf(csca.certificate);
    for (const crl of crls) {
      if (!crl.issuer.isEqual(ds.issuer) || !verifySignedBy(crl, cscaKey)) continue;
      if (crl.revokedCertificates?.some((r) => r.userCertificate.isEqual(ds.serialNumber)))
        throw new ChipFailure('CHIP_CERTIFICATE_INVALID', 'the Document Signer certificate is revoked');
    }
  }

  private checkHashes(hash: string, signed: Map<number, Buffer>, files: ChipFiles): number[] {
    const received: [number, Buffer | undefined][] = [
      [1, files.dg1],
      [2, files.dg2],
      [14, files.dg14],
      [15, files.dg15],
    ];
    const verified: number[] = [];
    for (const [number, data] of received) {
      if (!data) continue;
      const expected = signed.get(number);
      const actual = createHash(hash).update(data).digest();
      if (!expected || expected.length !== actual.length || !timingSafeEqual(expected, actual))
        throw new ChipFailure('CHIP_DATA_ALTERED', `DG${number} does not hash to the value the SOD signed`);
      verified.push(number);
    }
    return verified;
  }

  private checkActiveAuthentication(
    files: ChipFiles,
    aaKey: ReturnType<typeof parseDg15> | null,
    dg14: Dg14Infos | null,
    context: { now: Date; challenge: IssuedChallenge | null },
  ): ActiveAuthenticationOutcome {
    const answer = files.activeAuthentication;
    if (!aaKey) return 'NOT_SUPPORTED';
    if (!answer) return 'NOT_PERFORMED';
    const issued = context.challenge;
    const ours =
      issued !== null &&
      issued.challenge.length === answer.challenge.length &&
      timingSafeEqual(issued.challenge, answer.challenge);
    if (!ours) throw new ChipFailure('CHIP_CLONE_SUSPECTED', 'the AA answer is not to a challenge this session issued');
    if (issued.used) throw new ChipFailure('CHIP_CLONE_SUSPECTED', 'the AA challenge was already used');
    if (context.now > issued.expiresAt) throw new ChipFailure('CHIP_CLONE_SUSPECTED', 'the AA challenge had expired');
    if (!verifyActiveAuthentication(aaKey, answer.challenge, answer.signature, dg14?.aaSignatureAlgorithm ?? null))
      throw new ChipFailure('CHIP_CLONE_SUSPECTED', 'the AA signature does not verify with the DG15 key');
    return 'PASSED';
  }
}
