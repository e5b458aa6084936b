/**
 * The project's test PKI for eMRTD chips: X.509 certificates, CMS SignedData and a CRL built with
 * pkijs/asn1js and signed with node:crypto (WebCrypto refuses brainpool curves). Signing outputs
 * DER that `openssl cms -verify` accepts; the chip tests check that independently.
 */
import { createHash, sign, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export const OID = {
  sha1: '1.3.14.3.2.26',
  sha224: '2.16.840.1.101.3.4.2.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  rsaSha256: '1.2.840.113549.1.1.11',
  rsaPss: '1.2.840.113549.1.1.10',
  mgf1: '1.2.840.113549.1.1.8',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  ecdsaSha384: '1.2.840.10045.4.3.3',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  ldsSecurityObject: '2.23.136.1.1.1',
  cscaMasterList: '2.23.136.1.1.2',
  masterListSigner: '2.23.136.1.1.3',
  activeAuthenticationInfo: '2.23.136.1.1.5',
} as const;

export type HashName = 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
export type SignatureScheme = 'rsa-pkcs1' | 'rsa-pss' | 'ecdsa';

export interface Signer {
  privateKey: KeyObject;
  scheme: SignatureScheme;
  hash: 'sha256' | 'sha384';
}

const HASH_LENGTH = { sha256: 32, sha384: 48 } as const;

export function signatureAlgorithm(signer: Signer): pkijs.AlgorithmIdentifier {
  if (signer.scheme === 'ecdsa')
    return new pkijs.AlgorithmIdentifier({
      algorithmId: signer.hash === 'sha256' ? OID.ecdsaSha256 : OID.ecdsaSha384,
    });
  if (signer.scheme === 'rsa-pkcs1')
    return new pkijs.AlgorithmIdentifier({ algorithmId: OID.rsaSha256, algorithmParams: new asn1js.Null() });
  const hashAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: OID[signer.hash] });
  const params = new pkijs.RSASSAPSSParams({
    hashAlgorithm,
    maskGenAlgorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: OID.mgf1,
      algorithmParams: hashAlgorithm.toSchema(),
    }),
    saltLength: HASH_LENGTH[signer.hash],
  });
  return new pkijs.AlgorithmIdentifier({ algorithmId: OID.rsaPss, algorithmParams: params.toSchema() });
}

export function signBytes(signer: Signer, data: Uint8Array): Buffer {
  if (signer.scheme === 'rsa-pss')
    return sign(signer.hash, data, {
      key: signer.privateKey,
      padding: 6, // RSA_PKCS1_PSS_PADDING
      saltLength: HASH_LENGTH[signer.hash],
    });
  return sign(signer.hash, data, signer.privateKey);
}

export function digest(hash: HashName, data: Uint8Array): Buffer {
  return createHash(hash).update(data).digest();
}

export interface Name {
  country: string;
  organization: string;
  commonName: string;
}

/** One attribute per RDN (C, O, CN), as CSCA and Document Signer names are written. */
function toRdn(name: Name): pkijs.RelativeDistinguishedNames {
  const rdn = (type: string, value: asn1js.BaseBlock): asn1js.Set =>
    new asn1js.Set({ value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), value] })] });
  const sequence = new asn1js.Sequence({
    value: [
      rdn('2.5.4.6', new asn1js.PrintableString({ value: name.country })),
      rdn('2.5.4.10', new asn1js.Utf8String({ value: name.organization })),
      rdn('2.5.4.3', new asn1js.Utf8String({ value: name.commonName })),
    ],
  });
  // Parsed from DER, pkijs keeps these bytes as they are when it encodes the certificate.
  return pkijs.RelativeDistinguishedNames.fromBER(sequence.toBER(false));
}

export interface CertificateRequest {
  subject: Name;
  issuer: Name;
  serial: number;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  signer: Signer;
  /** CA: keyCertSign + cRLSign and basicConstraints cA; otherwise digitalSignature only. */
  ca: boolean;
  extendedKeyUsage?: string;
  issuerPublicKey: KeyObject;
}

const keyId = (publicKey: KeyObject): ArrayBuffer => {
  const spki = pkijs.PublicKeyInfo.fromBER(publicKey.export({ format: 'der', type: 'spki' }));
  return new Uint8Array(digest('sha1', new Uint8Array(spki.subjectPublicKey.valueBlock.valueHexView))).buffer;
};

function extension(extnID: string, critical: boolean, value: asn1js.BaseBlock): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

export function makeCertificate(request: CertificateRequest): Buffer {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: request.serial });
  cert.issuer = toRdn(request.issuer);
  cert.subject = toRdn(request.subject);
  cert.notBefore = new pkijs.Time({ type: 0, value: request.notBefore });
  cert.notAfter = new pkijs.Time({ type: 0, value: request.notAfter });
  cert.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(request.publicKey.export({ format: 'der', type: 'spki' }));
  // keyUsage bits: digitalSignature (bit 0) for signers; keyCertSign (5) + cRLSign (6) for CAs.
  const usage = request.ca ? new Uint8Array([0x06]) : new Uint8Array([0x80]);
  const extensions = [
    extension('2.5.29.15', true, new asn1js.BitString({ valueHex: usage.buffer, unusedBits: request.ca ? 1 : 7 })),
    extension('2.5.29.14', false, new asn1js.OctetString({ valueHex: keyId(request.publicKey) })),
    extension(
      '2.5.29.35',
      false,
      new pkijs.AuthorityKeyIdentifier({
        keyIdentifier: new asn1js.OctetString({ valueHex: keyId(request.issuerPublicKey) }),
      }).toSchema(),
    ),
  ];
  if (request.ca)
    extensions.push(
      extension('2.5.29.19', true, new pkijs.BasicConstraints({ cA: true, pathLenConstraint: 0 }).toSchema()),
    );
  if (request.extendedKeyUsage)
    extensions.push(
      extension('2.5.29.37', false, new pkijs.ExtKeyUsage({ keyPurposes: [request.extendedKeyUsage] }).toSchema()),
    );
  cert.extensions = extensions;
  cert.signature = signatureAlgorithm(request.signer);
  cert.signatureAlgorithm = signatureAlgorithm(request.signer);
  cert.tbsView = new Uint8Array(cert.encodeTBS().toBER(false));
  cert.signatureValue = new asn1js.BitString({ valueHex: signBytes(request.signer, cert.tbsView) });
  return Buffer.from(cert.toSchema(false).toBER(false));
}

/** A CRL from `issuer` listing `revokedSerials`. */
export function makeCrl(
  issuer: Name,
  signer: Signer,
  revokedSerials: number[],
  thisUpdate: Date,
  nextUpdate: Date,
): Buffer {
  const crl = new pkijs.CertificateRevocationList();
  crl.version = 1;
  crl.issuer = toRdn(issuer);
  crl.thisUpdate = new pkijs.Time({ type: 0, value: thisUpdate });
  crl.nextUpdate = new pkijs.Time({ type: 0, value: nextUpdate });
  crl.revokedCertificates = revokedSerials.map(
    (serial) =>
      new pkijs.RevokedCertificate({
        userCertificate: new asn1js.Integer({ value: serial }),
        revocationDate: new pkijs.Time({ type: 0, value: thisUpdate }),
      }),
  );
  crl.signature = signatureAlgorithm(signer);
  crl.signatureAlgorithm = signatureAlgorithm(signer);
  // pkijs marks encodeTBS protected on CRLs (public on certificates); its sign() would call it too.
  const tbs = (crl as unknown as { encodeTBS(): asn1js.Sequence }).encodeTBS();
  crl.tbsView = new Uint8Array(tbs.toBER(false));
  crl.signatureValue = new asn1js.BitString({ valueHex: signBytes(signer, crl.tbsView) });
  return Buffer.from((crl.toSchema(false) as asn1js.Sequence).toBER(false));
}

/**
 * CMS SignedData (RFC 5652) over `content` typed `contentType`, with the signed attributes ICAO
 * 9303-10 asks for (contentType, messageDigest, signingTime), the signer's certificate included.
 */
export function makeSignedData(args: {
  contentType: string;
  content: Buffer;
  certificateDer: Buffer;
  signer: Signer;
  signingTime: Date;
}): Buffer {
  const certificate = pkijs.Certificate.fromBER(new Uint8Array(args.certificateDer));
  const digestAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: OID[args.signer.hash] });
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    digestAlgorithm,
    signatureAlgorithm: signatureAlgorithm(args.signer),
  });
  // DER orders SET OF by encoding; these three sort as listed (shortest first, then by bytes).
  signerInfo.signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({
        type: OID.contentType,
        values: [new asn1js.ObjectIdentifier({ value: args.contentType })],
      }),
      new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: args.signingTime })] }),
      new pkijs.Attribute({
        type: OID.messageDigest,
        values: [new asn1js.OctetString({ valueHex: digest(args.signer.hash, args.content) })],
      }),
    ],
  });
  const signedAttrs = new Uint8Array(signerInfo.signedAttrs.toSchema().toBER(false));
  signedAttrs[0] = 0x31; // the signature covers the attributes as an explicit SET OF
  signerInfo.signature = new asn1js.OctetString({ valueHex: signBytes(args.signer, signedAttrs) });
  const signedData = new pkijs.SignedData({
    version: 3,
    digestAlgorithms: [digestAlgorithm],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: args.contentType,
      eContent: new asn1js.OctetString({ valueHex: args.content }),
    }),
    certificates: [certificate],
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}
