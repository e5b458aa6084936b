/**
 * The CSCAs (and CRLs) a deployment trusts for passive authentication, loaded once from the files
 * and folders CHIP_TRUST_ANCHORS names: PEM or DER CSCA certificates, DER CRLs, and CSCA Master
 * Lists (ICAO 9303-12: CMS SignedData over a SET of CSCA certificates, as Germany's BSI and the
 * ICAO PKD publish them), whose own signature is verified before any certificate is taken.
 * Nothing is downloaded.
 */
import { createHash, timingSafeEqual, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { hashOfOid } from '../chip/lds-parse';
import { publicKeyOf, verifySignature, verifySignedBy } from '../chip/signatures';

const CSCA_MASTER_LIST = '2.23.136.1.1.2';
const SIGNED_DATA = '1.2.840.113549.1.7.2';

export interface TrustAnchor {
  certificate: pkijs.Certificate;
  der: Buffer;
  country: string;
  subject: string;
  /** Where it came from: a file, or a file's Master List. */
  source: string;
  /** The project's test CSCA: trusted by sandbox keys only. */
  test: boolean;
}

export interface TrustStore {
  anchors: TrustAnchor[];
  crls: pkijs.CertificateRevocationList[];
}

export class TrustAnchorError extends Error {}

const nameValue = (name: pkijs.RelativeDistinguishedNames, type: string): string =>
  String(name.typesAndValues.find((t) => t.type === type)?.value.valueBlock.value ?? '');

export function describeName(name: pkijs.RelativeDistinguishedNames): string {
  const labels: Record<string, string> = {
    '2.5.4.6': 'C',
    '2.5.4.10': 'O',
    '2.5.4.11': 'OU',
    '2.5.4.3': 'CN',
    '2.5.4.5': 'serialNumber',
  };
  return name.typesAndValues
    .filter((t) => labels[t.type])
    .map((t) => `${labels[t.type]}=${String(t.value.valueBlock.value)}`)
    .join(', ');
}

export const countryOf = (name: pkijs.RelativeDistinguishedNames): string => nameValue(name, '2.5.4.6').toUpperCase();

function anchorOf(der: Buffer, source: string, test: boolean): TrustAnchor {
  const certificate = pkijs.Certificate.fromBER(new Uint8Array(der));
  return {
    certificate,
    der,
    country: countryOf(certificate.subject),
    subject: describeName(certificate.subject),
    source,
    test,
  };
}

function pemBlocks(text: string, label: string): Buffer[] {
  const pattern = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  return [...text.matchAll(pattern)].map((m) => Buffer.from(m[1].replace(/\s+/g, ''), 'base64'));
}

/** The CSCAs of a Master List, after its CMS signature and its signer's chain are verified. */
export function readMasterList(data: Buffer, source: string): Buffer[] {
  let signedData: pkijs.SignedData;
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(new Uint8Array(data));
    if (contentInfo.contentType !== SIGNED_DATA) throw new Error('not SignedData');
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch (error) {
    throw new TrustAnchorError(`${source}: not a CMS-signed Master List (${(error as Error).message})`);
  }
  const encap = signedData.encapContentInfo;
  if (encap.eContentType !== CSCA_MASTER_LIST || !encap.eContent)
    throw new TrustAnchorError(`${source}: CMS content is not a CSCA Master List`);
  const content = new Uint8Array(encap.eContent.getValue());
  const list = asn1js.fromBER(content).result;
  const set = list instanceof asn1js.Sequence ? list.valueBlock.value[1] : undefined;
  if (!(set instanceof asn1js.Set)) throw new TrustAnchorError(`${source}: malformed CscaMasterList`);
  const cscas = set.valueBlock.value.map((c) => Buffer.from(c.toBER(false)));
  const [signerInfo] = signedData.signerInfos;
  const signer = (signedData.certificates ?? []).find(
    (c): c is pkijs.Certificate =>
      c instanceof pkijs.Certificate &&
      signerInfo?.sid instanceof pkijs.IssuerAndSerialNumber &&
      c.serialNumber.isEqual(signerInfo.sid.serialNumber),
  );
  if (!signerInfo || !signer) throw new TrustAnchorError(`${source}: Master List has no signer certificate`);
  if (!verifyCmsSignature(signerInfo, content, signer))
    throw new TrustAnchorError(`${source}: the Master List's signature does not verify`);
  // The signer must be issued by a CSCA of the list itself (the publishing state's), as 9303-12 says.
  const issuer = cscas
    .map((der) => pkijs.Certificate.fromBER(new Uint8Array(der)))
    .find((csca) => csca.subject.isEqual(signer.issuer) && verifySignedBy(signer, publicKeyOf(csca)));
  if (!issuer) throw new TrustAnchorError(`${source}: the Master List signer is not issued by a CSCA of the list`);
  return cscas;
}

/** A SignerInfo over `content`: signed attributes (messageDigest) if present, else the content itself. */
export function verifyCmsSignature(
  signerInfo: pkijs.SignerInfo,
  content: Uint8Array,
  signer: pkijs.Certificate,
): boolean {
  const digestOid = signerInfo.digestAlgorithm.algorithmId;
  const signature = signerInfo.signature.valueBlock.valueHexView;
  const key = publicKeyOf(signer);
  if (!signerInfo.signedAttrs)
    return verifySignature(signerInfo.signatureAlgorithm, content, signature, key, digestOid);
  const signed = new Uint8Array(signerInfo.signedAttrs.encodedValue.slice(0));
  signed[0] = 0x31; // the signature covers the attributes as an explicit SET OF
  if (!verifySignature(signerInfo.signatureAlgorithm, signed, signature, key, digestOid)) return false;
  return messageDigestMatches(signerInfo, content);
}

function messageDigestMatches(signerInfo: pkijs.SignerInfo, content: Uint8Array): boolean {
  const attribute = signerInfo.signedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.4');
  const value: unknown = attribute?.values[0];
  if (!(value instanceof asn1js.OctetString)) return false;
  const hash = hashOfOid(signerInfo.digestAlgorithm.algorithmId);
  if (!hash) return false;
  const expected = createHash(hash).update(content).digest();
  const given = Buffer.from(value.valueBlock.valueHexView);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Every anchor and CRL in one file, whatever its form. */
export function readAnchorFile(file: string, test = false): TrustStore {
  const data = readFileSync(file);
  const text = data.toString('latin1');
  const store: TrustStore = { anchors: [], crls: [] };
  if (text.includes('-----BEGIN ')) {
    for (const der of pemBlocks(text, 'CERTIFICATE')) store.anchors.push(anchorOf(der, file, test));
    for (const der of pemBlocks(text, 'X509 CRL'))
      store.crls.push(pkijs.CertificateRevocationList.fromBER(new Uint8Array(der)));
    if (!store.anchors.length && !store.crls.length)
      throw new TrustAnchorError(`${file}: no CERTIFICATE or X509 CRL block`);
    return store;
  }
  try {
    new X509Certificate(data);
    store.anchors.push(anchorOf(data, file, test));
    return store;
  } catch {
    // not a certificate: a CRL or a Master List
  }
  try {
    store.crls.push(pkijs.CertificateRevocationList.fromBER(new Uint8Array(data)));
    return store;
  } catch {
    // not a CRL either
  }
  for (const der of readMasterList(data, file)) store.anchors.push(anchorOf(der, `${file} (Master List)`, test));
  return store;
}

/** CHIP_TRUST_ANCHORS: comma-separated files or folders (each folder's files, not recursive). */
export function loadTrustAnchors(paths: string[], test = false): TrustStore {
  const store: TrustStore = { anchors: [], crls: [] };
  for (const entry of paths) {
    const files = statSync(entry).isDirectory()
      ? readdirSync(entry)
          .filter((f) => !f.startsWith('.'))
          .sort()
          .map((f) => path.join(entry, f))
      : [entry];
    for (const file of files) {
      const part = readAnchorFile(file, test);
      store.anchors.push(...part.anchors);
      store.crls.push(...part.crls);
    }
  }
  return store;
}

export const TEST_CSCA_DIR = path.join(__dirname, 'test-csca');

/** The project's test CSCAs (committed beside this file), which sandbox keys also trust. */
export function loadTestCscas(): TrustStore {
  return loadTrustAnchors([TEST_CSCA_DIR], true);
}
